"""The one exception type of ikcore."""


class IKError(ValueError):
    """Raised for every invalid input; the message names the offending value.

    A subclass of :class:`ValueError`, so ``except ValueError`` also catches it.
    """
