"""MLPerf HPC's pages (mounted by ``benchdb.mlperf.urls``, namespace ``benchdb``); an
HPC result's own page is training's (``benchdb:result`` with suite ``hpc``)."""

from django.urls import path

from benchdb.mlperf.hpc import views as views_hpc

urlpatterns = [
    path("hpc/", views_hpc.hpc_rounds, name="hpc_rounds"),
    path(
        "hpc/<str:round_version>/<str:benchmark>/<str:scaling_type>/",
        views_hpc.hpc_board,
        name="hpc_board",
    ),
]
