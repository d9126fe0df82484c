from django.contrib import admin
from django.urls import include, path

from benchdb import views

app_name = "benchdb"

benchdb_patterns = [
    path("", views.home, name="home"),
    path("results/", views.results, name="results"),
    path("results/<int:pk>/", views.result_detail, name="result"),
    path("systems/<int:pk>/", views.system_detail, name="system"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include((benchdb_patterns, "benchdb"))),
]
