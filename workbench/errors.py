"""Typed errors of the workbench.

Every error raised for bad input is a :class:`WorkbenchError`; its message is
one line that names the bad value, so the command line can print it as is and
exit with status 2.
"""


class WorkbenchError(ValueError):
    """Base class of all bad-input errors; the message names the bad value."""


class BadRunError(WorkbenchError):
    """A judged run is malformed or uses a grade outside ``0..c``."""


class BadGainsError(WorkbenchError):
    """A gain mapping is not ``g(0) = 0`` and strictly increasing."""


class BadTopicError(WorkbenchError):
    """A topic (counts of relevant documents per grade) is malformed."""


class BadDepthError(WorkbenchError):
    """A depth is not a positive integer."""


class UnknownMeasureError(WorkbenchError):
    """A measure name is not in the registry."""


class BadParameterError(WorkbenchError):
    """A measure parameter is unknown, unparsable or outside its domain."""


class NeedsTopicError(WorkbenchError):
    """A measure needs a topic (recall base or ideal run) and none was given."""


class UnknownOrderError(WorkbenchError):
    """An order name is not one of the orders (docs/theory/orders.md)."""


class SpaceTooLargeError(WorkbenchError):
    """A space is too large for the requested exhaustive computation."""


class NotExpressibleError(WorkbenchError):
    """A measure cannot be written in the requested algebra (e.g. a logarithm in z3)."""


class UndecidedComparisonError(WorkbenchError):
    """Two exact values could not be compared rigorously (certified precision ran out)."""


class BadIndexError(BadRunError, IndexError):
    """An index is not in ``0 .. size-1`` of a space (also an :class:`IndexError`)."""


class OrderSpaceMismatchError(WorkbenchError):
    """An order was used on a space of the wrong kind (rank-based vs set-based)."""


class TrecFormatError(WorkbenchError):
    """A qrels or run file is malformed; the message names the file and line."""


class UndefinedMeasureError(WorkbenchError):
    """A measure is not defined for this depth and topic (e.g. Twist needs ``N >= 2 RB``)."""


class BadScoreMatrixError(WorkbenchError):
    """A topics x systems score matrix cannot be analysed (shape, non-finite value, system names)."""


class BadSamplingError(WorkbenchError):
    """A downsampling parameter (fraction, strategy, seed, repetition) is out of its domain."""


class MissingTopicError(TrecFormatError):
    """A run answers a topic the qrels do not have."""


class UserMeasureError(WorkbenchError):
    """A user's measure file failed: it raised, returned a non-exact value, or recursed.

    The message names the file, the line and the error, in one line.
    """


class TimeLimitError(BaseException):
    """A command ran past its ``--timeout``.

    Raised from a timer signal in the middle of any code, so it derives from
    :class:`BaseException` (as :class:`KeyboardInterrupt` does): no handler of
    ordinary errors on the way can swallow it.  The command line turns it into
    one line and exit status 2.
    """


class OutputPathError(WorkbenchError):
    """An output file cannot be written (its folder cannot be made, or it is not writable)."""


class CorruptFileError(TrecFormatError):
    """An input file cannot be decoded (truncated or corrupt gzip, not UTF-8)."""


class TooLargeError(SpaceTooLargeError):
    """A request would take more memory or time than the machine allows; the message gives the estimate and what fits."""


class BadInputShapeError(WorkbenchError, TypeError):
    """An argument has the wrong shape or type (a list where a dict of runs is expected, scores that are not numbers).

    The message names what it got and what is accepted; also a :class:`TypeError`.
    """


class UnknownImplementationError(WorkbenchError):
    """An implementation to check (``conformance IMPL``) is unknown: bad prefix or name, library missing, file or function not found."""


class SchedulerError(WorkbenchError):
    """A Dask scheduler address refuses the connection, stays silent past the connect timeout or is not a Dask scheduler."""


class MissingDataError(WorkbenchError):
    """The real TREC data a command needs is not there: ``WORKBENCH_DATA`` is unset, or its folder lacks the files."""


class IntransitiveOrderError(WorkbenchError):
    """A preference asked for as an order is not transitive on the space (``rpp``); the message shows a witness."""
