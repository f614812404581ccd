from simcards.api import simulate  # noqa: F401
__version__ = "0.1.0"
