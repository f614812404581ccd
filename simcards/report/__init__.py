"""Reports: a TOML spec of studies becomes an HTML page and a Markdown file that answer in words
first, with tables, plots (``simcards.report.plots``) and the CSV/Parquet data behind them."""

from simcards.report.build import build_report, check_writable, display_tables, load_spec, write_report

__all__ = ["build_report", "check_writable", "display_tables", "load_spec", "write_report"]
