"""``_per_chain``: what a solver derives from a chain, built once per chain and kept."""

from ikcore import Chain
from ikcore.solvers._per_chain import SIZE, per_chain


def test_built_once_per_chain_and_kept_for_it():
    built = []
    get = per_chain(lambda chain: built.append(chain) or len(built))
    a, b = Chain([(0, 0, 0), (1, 0, 0)]), Chain([(0, 0, 0), (0, 1, 0)])
    assert [get(a), get(b), get(a), get(b)] == [1, 2, 1, 2]
    assert built == [a, b]


def test_a_full_cache_starts_afresh():
    built = []
    get = per_chain(lambda chain: built.append(chain) or chain)
    chains = [Chain([(0, 0, 0), (1.0 + i, 0, 0)]) for i in range(SIZE + 1)]
    for chain in chains:
        assert get(chain) is chain
    assert get(chains[0]) is chains[0] and len(built) == SIZE + 2
