"""The one exception type of ikcore."""


class IKError(ValueError):
    """Raised for every invalid input; the message names the offending value.

    A subclass of :class:`ValueError`, so ``except ValueError`` also catches it.

    Examples
    --------
    >>> import ikcore
    >>> try:
    ...     ikcore.Chain([(0, 0, 0)])
    ... except ValueError as error:
    ...     print(type(error).__name__, error)
    IKError Chain points needs at least 2 points, got 1
    """
