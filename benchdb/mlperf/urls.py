"""The MLPerf pages, mounted at the site root (namespace ``benchdb``): the home page,
then each suite's own ``urls.py`` (its package in ``benchdb.suites``, in the
registry's order; their paths do not overlap: ``inference/``, ``hpc/``, training's
``rounds/``, ``results/``...)."""

from importlib import import_module

from django.urls import URLPattern, path

from benchdb import suites
from benchdb.home import views as views_home

app_name = "benchdb"

urlpatterns: list[URLPattern] = [path("", views_home.home, name="home")]
for _suite in suites.SUITES:
    urlpatterns += import_module(f"{_suite.package}.urls").urlpatterns
