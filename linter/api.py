"""What a Python rule imports: the `check` decorator, `Params` for its parameters, `Skip`.

A check is `fn(review, params)` yielding `review.hit(kind, path, message)`: `review.cluster`,
`review.contract` and `review.workload` are the typed documents (None when absent) and `path` is
the spec path of the offending value, so the engine can give its line and column. Raise
`Skip(reason)` when the check cannot run on this review; it is reported, never passed.
"""

from clusterlint.engine.review import Skip, check
from clusterlint.rules.params import Params

__all__ = ["Params", "Skip", "check"]
