"""Vendor pages and claims, mounted at ``vendor/`` (namespace ``vendor``)."""

from django.urls import path

from benchdb import vendor_views

app_name = "vendor"

urlpatterns = [
    path("", vendor_views.page_list, name="pages"),
    path("upload/", vendor_views.page_upload, name="upload"),
    path("pages/<int:pk>/", vendor_views.page_detail, name="page"),
    path("pages/<int:pk>/tables/", vendor_views.page_vendor_results, name="page_tables"),
    path("claims/", vendor_views.claims, name="claims"),
    path("claims/<int:pk>/", vendor_views.claim_detail, name="claim"),
    path("claims/<int:pk>/correct/", vendor_views.claim_correct, name="claim_correct"),
]
