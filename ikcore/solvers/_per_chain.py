"""What a solver derives from a chain once and keeps: a chain never changes, so its
limit table, rest points or plane serve every later solve of it (a scene solves the
same few chains every frame)."""

#: Most chains one cache keeps; past it, the cache starts afresh.
SIZE = 64


def per_chain(build):
    """``get(chain)``: ``build(chain)``, computed at a chain's first call and kept.

    Entries are keyed by ``id(chain)`` and hold the chain itself, which therefore
    stays alive while its entry is kept: its id cannot go to another chain
    meanwhile. The lookup is a closure over its own dict, so a call costs one
    function call, as a module function over a module-level dict would.
    """
    cache = {}

    def get(chain):
        entry = cache.get(id(chain))
        if entry is None or entry[0] is not chain:
            if len(cache) >= SIZE:
                cache.clear()
            entry = cache[id(chain)] = (chain, build(chain))
        return entry[1]

    return get
