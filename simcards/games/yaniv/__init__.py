"""Yaniv: rules, engines and strategies (see ../shared/rules/yaniv.md)."""
