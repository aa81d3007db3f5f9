"""Reports from Inspect logs: leaderboards, run metadata, figures (Markdown, HTML, JSON)."""

from mechbench.report.build import Report, build_report
from mechbench.report.render import write_report

__all__ = ["Report", "build_report", "write_report"]
