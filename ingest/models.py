"""Tables of ingestion itself: problems found in the input (sources and jobs: issue 5)."""

from __future__ import annotations

from django.db import models


class IngestProblem(models.Model):
    """Something wrong in an input file, with where: ``path`` relative to the
    repository root, ``line`` 1-based (None when it concerns the whole file).

    Unique per (round, path, line, message), so that ingesting the same input twice
    adds nothing.
    """

    class Severity(models.TextChoices):
        ERROR = "error", "Error"
        WARNING = "warning", "Warning"

    round = models.ForeignKey(
        "benchdb.Round", on_delete=models.CASCADE, null=True, related_name="problems"
    )
    result = models.ForeignKey(
        "benchdb.Result", on_delete=models.SET_NULL, null=True, blank=True, related_name="problems"
    )
    path = models.CharField(max_length=500)
    line = models.IntegerField(null=True, blank=True)
    message = models.TextField()
    severity = models.CharField(max_length=16, choices=Severity.choices, default=Severity.ERROR)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "path", "line", "message"],
                name="problem_unique",
                nulls_distinct=False,
            )
        ]
        ordering = ["path", "line"]

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
