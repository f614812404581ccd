"""The one exception type a user sees: a clear, one-line message about their input."""


class SimcardsError(ValueError):
    """Bad input: the message names what is wrong and what is allowed."""
