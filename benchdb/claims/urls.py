"""Vendor pages and claims, mounted at ``vendor/`` (namespace ``vendor``)."""

from django.urls import path

from benchdb.claims import views, views_reports

app_name = "vendor"

urlpatterns = [
    path("", views.page_list, name="pages"),
    path("pages/<int:pk>/", views.page_detail, name="page"),
    path("pages/<int:pk>/tables/", views.page_vendor_results, name="page_tables"),
    path("pages/<int:pk>/guidelines/", views_reports.page_guidelines, name="page_guidelines"),
    path("pages/<int:pk>/numbers/", views_reports.page_numbers, name="page_numbers"),
    path("claims/", views.claims, name="claims"),
    path("families/", views_reports.claim_families, name="families"),
    path("claims/<int:pk>/", views.claim_detail, name="claim"),
]
