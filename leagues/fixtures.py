"""Fixture generation: who sits at which table, in which seat, round by round, for a league season.

Pure Python, no Django. The measure of a draw is its *repeated meetings*: two entrants meet when they
share a table in a round (bots do not count), and a pair that meets m times contributes max(0, m - 1);
the draw's repeats are the sum over all pairs (``repeated_pairs``). The tables of a round create a fixed
number of pair slots, so repeats = pair slots - distinct pairs met, and ``lower_bound`` says how few
are possible at all.

Who sits together starts from a construction where one is known to meet nobody twice: a round robin
(circle method) for tables of two; for v = k*g points at tables of k (g a prime power, g >= k) the g
parallel classes of a resolvable transversal design, followed by the classes of each group's own
design (this gives the affine planes: 9 at threes over 4 rounds, 16 at fours over 5, 25 at fives over 6,
27 at threes over 13); and designs found by a computer search, written in as data in
``leagues.designs`` (Kirkman's fifteen schoolgirls: 15 at threes over 7; a Kirkman triple system: 21
at threes over 10; 28 at fours over 9; 32 at fours over 10, the Social Golfer Problem; 40 at fours over
10). When entrants do not fill the tables, the missing points of the design are the bot seats. The remaining rounds are drawn greedily (table by table, whoever met the table least);
that start competes with a purely greedy one and a few shuffled draws, and from the best of them a
simulated annealing over swaps of two entrants in the same round minimises the repeats exactly,
stopping at the lower bound.

Fairness is kept as hard rules: byes rotate through a shuffled order, so nobody sits out twice before
everyone has sat out once; bot seats too: no entrant sits with bots more often (counted in bot seats at
their tables) than another by more than one. The search may pass through unfair draws (at a cost) but
keeps only fair ones; that rule costs repeats at a few sizes (7 entrants at fours over 3 rounds: 10 at
best; 6 only if one entrant sits with the bot all three rounds, 9 at best with a spread of two).
Seat positions are then dealt exactly (an equitable edge colouring: everyone's counts per position
differ by at most one). In Karnoffel a seat also decides the
partner, so there a last search phase moves seats inside tables, weighing seat balance against repeated
partners (partners win: a long season may leave someone two deals short). Everything random comes from
``seed``: the same arguments give the same schedule.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from leagues import designs

# Weights of the cost terms: repeated opponents and repeated partners count alike; seat positions
# (squared counts, so they spread) count only in Karnoffel's last phase.
PAIR = 12
PARTNER = 12
SEAT = 3
BOTS = 12  # per bot seat beyond the fair share, while searching
SHUFFLED = 8  # random draws that the first schedule is also chosen from
BUDGET = 150  # annealing steps per entrant and round

BOT = -1  # a bot seat inside the search; None in the result


@dataclass(frozen=True)
class Table:
    seats: tuple[int | None, ...]  # entrant ids in seat order (seat 0 deals first); None = a bot seat


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[int, ...]


def schedule(
    entrants: Sequence[int],
    *,
    table_size: int,
    rounds: int,
    fill: Literal["bots", "byes"],
    seed: int,
    partners: bool = False,
) -> list[Round]:
    """The season's rounds: every entrant seated once per round, or given a bye when fill="byes"."""
    _check(entrants, table_size=table_size, rounds=rounds, fill=fill, partners=partners)
    n = len(entrants)
    rng = random.Random(seed)
    caps, per_round_byes = _layout(n, table_size, fill)
    starts, byes = _start(n, table_size, rounds, caps, per_round_byes, rng)
    floor = lower_bound(n, table_size=table_size, rounds=rounds, fill=fill)
    searches = [
        _Search(slots, byes, n=n, size=table_size, caps=caps, partners=partners, rng=rng, floor=floor)
        for slots in starts
    ]
    best = min(searches, key=lambda search: search.cost).run()
    if not partners:
        best = _balance_seats(best, table_size)
    return [
        Round(
            tables=tuple(
                Table(tuple(None if p == BOT else entrants[p] for p in row[k : k + table_size]))
                for k in range(0, len(row), table_size)
            ),
            byes=tuple(entrants[p] for p in sorted(round_byes)),
        )
        for row, round_byes in zip(best, byes, strict=True)
    ]


def repeated_pairs(rounds: Sequence[Round]) -> int:
    """Repeated meetings: the sum over pairs of entrants of max(0, times they shared a table - 1)."""
    met: Counter[tuple[int, int]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            met.update(combinations(sorted(p for p in table.seats if p is not None), 2))
    return sum(count - 1 for count in met.values())


def repeated_partners(rounds: Sequence[Round]) -> int:
    """Karnoffel: pairs of entrants who are partners (seats 0+2, 1+3) more than once, per extra time."""
    together: Counter[tuple[int, int]] = Counter()
    for round_ in rounds:
        for table in (t for t in round_.tables if len(t.seats) == 4):
            for a, b in ((0, 2), (1, 3)):
                first, second = table.seats[a], table.seats[b]
                if first is not None and second is not None:
                    together[(min(first, second), max(first, second))] += 1
    return sum(count - 1 for count in together.values())


def bot_seats(rounds: Sequence[Round]) -> Counter[int]:
    """How many bot seats each seated entrant had at their tables over the rounds (0 for none)."""
    faced: Counter[int] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            bots = table.seats.count(None)
            for p in table.seats:
                if p is not None:
                    faced[p] += bots
    return faced


def seat_balance(rounds: Sequence[Round]) -> int:
    """The worst entrant's spread: most minus fewest times in one seat position (0 or 1 is balanced)."""
    counts: dict[int, Counter[int]] = {}
    size = 0
    for round_ in rounds:
        for table in round_.tables:
            size = max(size, len(table.seats))
            for position, player in enumerate(table.seats):
                if player is not None:
                    counts.setdefault(player, Counter())[position] += 1
    return max((max(c[i] for i in range(size)) - min(c[i] for i in range(size)) for c in counts.values()), default=0)


def lower_bound(entrants: int, *, table_size: int, rounds: int, fill: Literal["bots", "byes"]) -> int:
    """The fewest repeated meetings any draw of this size can have (a bound; not always reached).

    The largest of three counts: the pair slots of all tables minus the distinct pairs; the same per
    entrant (someone who meets more others than there are must meet someone again; the meetings spread
    as evenly as the byes and bot seats allow); and each round after the first seats its tables with
    people who sat at the first round's tables, so a table of more people than there were tables
    seats some of them together again.
    """
    n, size = entrants, table_size
    caps, per_round_byes = _layout(n, size, fill)
    if not caps:
        return 0  # too few for one table: nobody meets
    slots = rounds * sum(c * (c - 1) // 2 for c in caps)
    counting = max(0, slots - n * (n - 1) // 2)
    meetings = _even_meetings(n, size, rounds, caps, per_round_byes)
    per_entrant = -(-sum(max(0, m - (n - 1)) for m in meetings) // 2)
    again = 0
    if rounds > 1:
        shares = [_least_pairs(c, len(caps)) for c in caps]
        for _ in range(per_round_byes):  # the round's seated who sat out the first round
            k = max(range(len(shares)), key=lambda t: shares[t] - _least_pairs(caps[t] - 1, len(caps)))
            caps = caps[:k] + [caps[k] - 1] + caps[k + 1 :]
            shares[k] = _least_pairs(caps[k], len(caps))
        again = (rounds - 1) * sum(shares)
    return max(counting, per_entrant, again)


def swiss_round(order: Sequence[int], *, table_size: int, met: Mapping[tuple[int, int], int]) -> tuple[Table, ...]:
    """The next round of a Swiss draw: tables of neighbours in the standings, avoiding old opponents.

    ``order`` is the standings, best first; ``met`` counts earlier meetings by (smaller id, larger id).
    Tables go down the order (fuller tables first, bots at the end as in ``schedule``): each takes the
    best entrant left and, from the next few, those who met the table least, the nearest in the
    order when that ties. A Swiss league's rounds are drawn with it as they open (``rounds.swiss_draw``).
    """
    if len(set(order)) != len(order) or len(order) < 2 or table_size < 2:
        raise ValueError("A Swiss round needs at least two different entrants and tables of two or more.")
    caps, _ = _layout(len(order), table_size, "bots")
    left = list(order)
    tables = []
    for cap in caps:
        head, window = left[0], left[1 : 1 + 2 * table_size]
        choice = min(
            combinations(range(len(window)), cap - 1),
            key=lambda picked: (_swiss_repeats([head, *(window[k] for k in picked)], met), sum(picked)),
        )
        table = [head, *(window[k] for k in choice)]
        left = [p for p in left if p not in table]
        tables.append(Table((*table, *[None] * (table_size - cap))))
    return tuple(tables)


def _swiss_repeats(table: list[int], met: Mapping[tuple[int, int], int]) -> int:
    return sum(met.get((min(a, b), max(a, b)), 0) > 0 for a, b in combinations(table, 2))


def _even_meetings(n: int, size: int, rounds: int, caps: list[int], per_round_byes: int) -> list[int]:
    """Each entrant's meetings when byes and the short tables are shared out as evenly as possible."""
    if per_round_byes:
        byes, extra = divmod(rounds * per_round_byes, n)
        return [(rounds - byes - (p < extra)) * (size - 1) for p in range(n)]
    full = max(caps)
    short_seats = rounds * sum(c for c in caps if c < full)
    short, extra = divmod(short_seats, n)
    return [rounds * (full - 1) - short - (p < extra) for p in range(n)]


def _least_pairs(people: int, groups: int) -> int:
    """The fewest pairs inside groups when ``people`` are split into ``groups`` groups."""
    q, r = divmod(people, groups)
    return r * (q + 1) * q // 2 + (groups - r) * q * (q - 1) // 2


def _check(entrants: Sequence[int], *, table_size: int, rounds: int, fill: str, partners: bool) -> None:
    if len(set(entrants)) != len(entrants):
        raise ValueError("Each entrant can be scheduled only once.")
    if len(entrants) < 2:
        raise ValueError("A season needs at least two entrants.")
    if table_size < 2:
        raise ValueError("A table needs at least two seats.")
    if rounds < 1:
        raise ValueError("A season needs at least one round.")
    if fill not in ("bots", "byes"):
        raise ValueError("Empty seats are filled with bots or given as byes.")
    if partners and table_size != 4:
        raise ValueError("Partners play at tables of four.")
    if fill == "byes" and len(entrants) < table_size:
        raise ValueError(
            f"With byes, a table of {table_size} needs at least {table_size} entrants; choose bots instead."
        )


def _layout(n: int, size: int, fill: str) -> tuple[list[int], int]:
    """Entrants per table (the same every round, fuller tables first) and byes per round."""
    if fill == "byes":
        return [size] * (n // size), n % size
    tables = -(-n // size)
    base, extra = divmod(n, tables)  # bots spread so no table has two more than another
    return [base + 1] * extra + [base] * (tables - extra), 0


# --- the start: known designs, then a greedy draw --------------------------------------------


def _start(
    n: int, size: int, rounds: int, caps: list[int], per_round_byes: int, rng: random.Random
) -> tuple[list[list[list[int]]], list[list[int]]]:
    """First schedules (slots per round, -1 for bots) to choose from, and the byes, which the search keeps."""
    order = list(range(n))
    rng.shuffle(order)
    if size == 2:
        slots, byes = _round_robin(order, rounds, caps, per_round_byes)
        return [slots], byes
    byes = [[order[(r * per_round_byes + i) % n] for i in range(per_round_byes)] for r in range(rounds)]
    designed = [] if per_round_byes else _designed_rounds(n, size, caps, order, rng)[:rounds]
    greedy = [_greedy(n, size, caps, byes, [], rng)] + [_shuffled(n, size, caps, byes, rng) for _ in range(SHUFFLED)]
    # A design with bot seats may give some entrants more of them than others: evening them out can
    # cost more repeats than the design saved, so the greedy draw competes, and a few shuffled draws.
    return ([_greedy(n, size, caps, byes, designed, rng)] if designed else []) + greedy, byes


def _designed_rounds(n: int, size: int, caps: list[int], order: list[int], rng: random.Random) -> list[list[int]]:
    """Rounds from a design on (tables x size) points where nobody meets twice; spare points are bots.

    A round is used only when its bots fall as the layout puts them (``caps``, fuller tables first).
    """
    v = len(caps) * size
    label = order + [BOT] * (v - n)  # points 0..n-1 are entrants (shuffled); the last are bots
    label = label[n:] + label[:n] if v > n else label  # the bots on the first points (one group)
    rows = []
    for parallel in _classes(v, size):
        tables = sorted(([label[p] for p in block] for block in parallel), key=lambda t: t.count(BOT))
        if [size - t.count(BOT) for t in tables] == caps:
            rows.append([p for t in tables for p in sorted(t, key=lambda p: p == BOT)])
    rng.shuffle(rows)
    return rows


def _classes(v: int, k: int) -> list[list[list[int]]]:
    """Parallel classes (partitions of range(v) into blocks of k) in which two points share a block at most once."""
    if v == k:
        return [[list(range(v))]]
    if designed := designs.classes(v, k):
        return designed
    g = v // k
    if v % k or g < k or g not in _FIELDS:
        return []
    add, mul = _FIELDS[g]
    # A resolvable transversal design: group i holds points i*g + x; in round m table t seats
    # (i, t + m*i) from each group, so two points of different groups meet in exactly one round.
    result = [[[i * g + add[t][mul[m][i]] for i in range(k)] for t in range(g)] for m in range(g)]
    for parallel in _classes(g, k):  # then each group among itself, all groups in the same round
        result.append([[i * g + p for p in block] for i in range(k) for block in parallel])
    return result


def _field(p: int, power: int, modulus: int) -> tuple[list[list[int]], list[list[int]]]:
    """GF(p**power): elements are base-p digit vectors (polynomials); ``modulus`` the irreducible's low digits."""
    q = p**power

    def digits(a: int) -> list[int]:
        return [(a // p**i) % p for i in range(power)]

    def number(ds: list[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    low = digits(modulus)
    add = [
        [number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)]) for b in range(q)] for a in range(q)
    ]
    mul = [[0] * q for _ in range(q)]
    for a in range(q):
        for b in range(q):
            product = [0] * (2 * power)
            for i, x in enumerate(digits(a)):
                for j, y in enumerate(digits(b)):
                    product[i + j] = (product[i + j] + x * y) % p
            for top in range(2 * power - 1, power - 1, -1):  # x^power = -(low digits)
                c, product[top] = product[top], 0
                for i, d in enumerate(low):
                    product[top - power + i] = (product[top - power + i] - c * d) % p
            mul[a][b] = number(product[:power])
    return add, mul


# Prime-power fields for tables up to eight and 48 seats: (p, power, the irreducible's low digits).
_FIELDS = {
    p**power: _field(p, power, modulus)
    for p, power, modulus in ((2, 1, 0), (3, 1, 0), (5, 1, 0), (7, 1, 0), (11, 1, 0), (13, 1, 0))
    + ((2, 2, 0b11), (2, 3, 0b011), (3, 2, 1), (2, 4, 0b0011))
}


def _round_robin(
    order: list[int], rounds: int, caps: list[int], per_round_byes: int
) -> tuple[list[list[int]], list[list[int]]]:
    """The circle method: everyone meets everyone once in n-1 rounds (n rounds when n is odd)."""
    ring = order + ([BOT] if len(order) % 2 else [])
    m = len(ring)
    slots, byes = [], []
    for r in range(rounds):
        turn = r % (m - 1)
        rotated = [ring[0]] + [ring[1 + (k - turn) % (m - 1)] for k in range(m - 1)]
        pairs = [[rotated[k], rotated[m - 1 - k]] for k in range(m // 2)]
        pairs.sort(key=lambda pair: BOT in pair)  # the short table (a bot or a bye) last, as in caps
        if per_round_byes:
            byes.append([p for pair in pairs if BOT in pair for p in pair if p != BOT])
            pairs = [pair for pair in pairs if BOT not in pair]
        else:
            byes.append([])
        slots.append([p for pair in pairs for p in pair])
    assert all(len(row) == 2 * len(caps) for row in slots)
    return slots, byes


def _greedy(
    n: int, size: int, caps: list[int], byes: list[list[int]], designed: list[list[int]], rng: random.Random
) -> list[list[int]]:
    """The designed rounds, then round by round each entrant to the table where they met the fewest.

    Those with the fewest bot seats so far go to the tables with more bots, so bot seats stay even.
    """
    met = [[0] * n for _ in range(n)]
    exposed = [0] * n
    bots = [size - cap for cap in caps]
    slots: list[list[int]] = []
    for r, out in enumerate(byes):
        if r < len(designed):
            row = designed[r]
        else:
            skip = set(out)
            players = [p for p in range(n) if p not in skip]
            rng.shuffle(players)
            players.sort(key=lambda p: exposed[p])  # stable: ties stay shuffled
            heavy = sum(cap for cap, b in zip(caps, bots, strict=True) if b > min(bots))
            row = _greedy_round(players[:heavy], players[heavy:], caps, bots, size, met, rng)
        for base in range(0, len(row), size):
            table = [p for p in row[base : base + size] if p != BOT]
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
            for p in table:
                exposed[p] += size - len(table)
        slots.append(row)
    return slots


def _shuffled(n: int, size: int, caps: list[int], byes: list[list[int]], rng: random.Random) -> list[list[int]]:
    """A random draw by the same rules: the tables with more bots to those who had the fewest so far."""
    exposed = [0] * n
    slots = []
    for out in byes:
        skip = set(out)
        players = [p for p in range(n) if p not in skip]
        rng.shuffle(players)
        players.sort(key=lambda p: -exposed[p])  # fuller tables first, so the last places have the bots
        row, start = [], 0
        for cap in caps:
            for p in players[start : start + cap]:
                exposed[p] += size - cap
            row += players[start : start + cap] + [BOT] * (size - cap)
            start += cap
        slots.append(row)
    return slots


def _greedy_round(
    heavy: list[int],
    light: list[int],
    caps: list[int],
    bots: list[int],
    size: int,
    met: list[list[int]],
    rng: random.Random,
) -> list[int]:
    """The best of a few tries, each filling the tables one by one with whoever met the table least."""
    best: tuple[int, list[int]] | None = None
    for _ in range(8):
        repeats, tables = 0, []
        pools = {True: heavy[:], False: light[:]}
        for pool in pools.values():
            rng.shuffle(pool)
        for cap, b in zip(caps, bots, strict=True):
            pool = pools[b > min(bots)]
            table = [pool.pop()]
            while len(table) < cap:
                k = min(range(len(pool)), key=lambda k: sum(met[pool[k]][c] > 0 for c in table))
                repeats += sum(met[pool[k]][c] > 0 for c in table)
                table.append(pool.pop(k))
            tables.append(table + [BOT] * (size - cap))
        if best is None or repeats < best[0]:
            best = (repeats, [p for table in tables for p in table])
        if not repeats:
            break
    assert best is not None
    return best[1]


def _balance_seats(slots: list[list[int]], size: int) -> list[list[int]]:
    """Seat positions so that everyone's counts per position differ by at most one.

    An equitable edge colouring of the bipartite graph entrants x tables, colours being seat
    positions (de Werra): each entrant is split into one node per ``size`` appearances, so a proper
    colouring with ``size`` colours (Konig: alternating paths) gives each full node every position
    once and the last node distinct positions.
    """
    width = len(slots[0])
    at_table: dict[int, list[int | None]] = {}  # table node -> colour -> entrant node
    at_entrant: dict[int, list[int | None]] = {}  # entrant node -> colour -> table node
    seen: Counter[int] = Counter()
    for r, row in enumerate(slots):
        for k, p in enumerate(row):
            if p == BOT:
                continue
            table, node = r * width + k // size, p * len(slots) + seen[p] // size
            seen[p] += 1
            colours_t = at_table.setdefault(table, [None] * size)
            colours_e = at_entrant.setdefault(node, [None] * size)
            a = colours_e.index(None)
            if colours_t[a] is not None:
                _flip(table, a, colours_t.index(None), at_table, at_entrant)
            colours_t[a], colours_e[a] = node, table
    result = [[BOT] * width for _ in slots]
    for table, colours in at_table.items():
        r, k = divmod(table, width)
        for colour, seated in enumerate(colours):
            if seated is not None:
                result[r][k * size + colour] = seated // len(slots)
    return result


def _flip(
    table: int, a: int, b: int, at_table: dict[int, list[int | None]], at_entrant: dict[int, list[int | None]]
) -> None:
    """Swap colours a and b along the alternating path from ``table``, which then has a free."""
    path: list[tuple[int, int, int]] = []  # (table node, entrant node, colour)
    node: int | None = table
    colour, on_table = a, True
    while node is not None:
        if on_table:
            other = at_table[node][colour]
            if other is not None:
                path.append((node, other, colour))
        else:
            other = at_entrant[node][colour]
            if other is not None:
                path.append((other, node, colour))
        node, on_table, colour = other, not on_table, (b if colour == a else a)
    for t, e, c in path:
        at_table[t][c] = at_entrant[e][c] = None
    for t, e, c in path:
        swapped = b if c == a else a
        at_table[t][swapped], at_entrant[e][swapped] = e, t


class _Search:
    """The schedule's cost kept up to date under swaps; ``run`` anneals and returns the best slots.

    First who sits together (repeated opponents, and partners in Karnoffel), by swaps of two entrants
    of one round; a swap between tables with different numbers of bots is made only when everyone's
    bot seats stay within one of each other. Then, in Karnoffel, seat positions by moves that keep
    every partnership (partners trade seats, or both partnerships change sides). Without partners,
    seat positions are dealt afterwards by _balance_seats, exactly.
    """

    def __init__(
        self,
        slots: list[list[int]],
        byes: list[list[int]],
        *,
        n: int,
        size: int,
        caps: list[int],
        partners: bool,
        rng: random.Random,
        floor: int,
    ) -> None:
        self.slots, self.byes, self.caps, self.n, self.size, self.rng = slots, byes, caps, n, size, rng
        self.partners = partners
        self.seat_weight = 0  # seats count only in the last phase
        self.bots = [size - cap for cap in caps]
        self.met = [[0] * n for _ in range(n)]
        self.together = [[0] * n for _ in range(n)]
        self.seats = [[0] * size for _ in range(n)]
        self.exposed = [0] * n  # bot seats at this entrant's tables so far
        exposure = len(slots) * sum(b * cap for b, cap in zip(self.bots, caps, strict=True))
        self.least, self.most = exposure // n, -(-exposure // n)
        self.pair_floor = floor
        self._reset(slots)
        self._even_out_bots()

    def _reset(self, slots: list[list[int]]) -> None:
        self.slots = slots
        for counts in (self.met, self.together, self.seats):
            for row in counts:
                row[:] = [0] * len(row)
        self.exposed[:] = [0] * self.n
        for row in slots:
            for base in range(0, len(row), self.size):
                self._count_table(row, base, 1)
        together, seats = self._parts()
        self.cost = together + seats + BOTS * self._unfair()
        self.floor = (together if self.seat_weight else self._together_floor()) + self._seats_floor()

    def _parts(self) -> tuple[int, int]:
        """The cost of who sits together (repeated opponents and partners) and of seat positions."""
        pairs = sum(max(0, m - 1) for row in self.met for m in row) // 2
        partnered = sum(max(0, m - 1) for row in self.together for m in row) // 2
        seats = sum(c * c for row in self.seats for c in row)
        return PAIR * pairs + PARTNER * partnered, self.seat_weight * seats

    def _together_floor(self) -> int:
        floor = PAIR * self.pair_floor
        if self.partners:
            partnered = len(self.slots) * sum(max(0, cap - 2) for cap in self.caps)
            floor += PARTNER * max(0, partnered - self.n * (self.n - 1) // 2)
        return floor

    def _seats_floor(self) -> int:
        rounds = len(self.slots)
        sat_out = Counter(p for out in self.byes for p in out)
        q = [divmod(rounds - sat_out[p], self.size) for p in range(self.n)]
        return self.seat_weight * sum(r * (d + 1) ** 2 + (self.size - r) * d * d for d, r in q)

    def run(self) -> list[list[int]]:
        width = len(self.slots[0])
        best = self.slots
        if self.cost > self.floor and (width > self.size or self.partners):
            # Capped so that a division of hundreds is drawn in seconds; small ones get the full search.
            best = self._anneal(min(2000 + BUDGET * len(self.slots) * self.n, 100_000), mode="tables")
        if not self.partners:
            return best
        self.seat_weight = SEAT
        self._reset(best)
        return self._anneal(2000 * len(self.slots), mode="seats")

    def _even_out_bots(self) -> None:
        """Swaps (the cheapest first) until everyone's bot seats are within one of each other."""
        if self.least == self.most and all(e == self.least for e in self.exposed):
            return
        size = self.size
        while True:
            over = [p for p in range(self.n) if self.exposed[p] > self.most]
            under = [p for p in range(self.n) if self.exposed[p] < self.least]
            if not over and not under:
                return
            moves = []
            for row in self.slots:
                for i, a in enumerate(row):
                    for j, b in enumerate(row):
                        if a == BOT or b == BOT or self.bots[i // size] <= self.bots[j // size]:
                            continue
                        # a moves to fewer bots, b to more: worth it when a has too many or b too few
                        if (a in over or b in under) and self.exposed[b] < self.most and self.exposed[a] > self.least:
                            moves.append((self._delta_across(row, i, j), row, i, j))
            _, row, i, j = min(moves, key=lambda m: m[0])
            self.cost += self._delta_across(row, i, j)
            self._swap(row, i, j, False)

    def _anneal(self, budget: int, *, mode: Literal["tables", "seats"]) -> list[list[int]]:
        rng, slots, size = self.rng, self.slots, self.size
        rounds, width = len(slots), len(slots[0])
        hot, cold = (1.0 if mode == "seats" else PAIR / 2), 0.3
        best, best_slots = self.cost, [row[:] for row in slots]
        closest, closest_slots = best, best_slots  # the best draw of all, fair or not
        for step in range(budget):
            if best <= self.floor:
                break
            row = slots[rng.randrange(rounds)]
            i = rng.randrange(width)
            base = i - i % size
            pick = rng.random()
            if mode == "seats" and pick < 0.6:
                flip = pick < 0.3
                delta = self._side_flip(row, base) if flip else self._partners_trade(row, i)
                if delta > 0 and rng.random() >= math.exp(-delta / (hot * (cold / hot) ** (step / budget))):
                    _ = self._side_flip(row, base) if flip else self._partners_trade(row, i)  # undo
                    continue
                self.cost += delta
                if self.cost < best:
                    best, best_slots = self.cost, [r[:] for r in slots]
                continue
            if mode == "seats" or (self.partners and pick < 0.5):
                j = base + rng.randrange(size)  # within the table: changes who partners whom
            else:
                for _ in range(3):  # prefer moving someone who meets a repeated opponent here
                    if self._conflicted(row, i):
                        break
                    i = rng.randrange(width)
                base = i - i % size
                if width == size:
                    continue
                j = rng.randrange(width - size)
                j += size if j >= base else 0
            if i == j or (row[i] == BOT and row[j] == BOT):
                continue
            same = j - j % size == base
            if not same and (row[i] == BOT or row[j] == BOT):
                continue  # bots stay at their table; only their seat position moves
            delta = self._delta_within(row, i, j) if same else self._delta_across(row, i, j)
            if delta > 0:
                temperature = hot * (cold / hot) ** (step / budget)
                if rng.random() >= math.exp(-delta / temperature):
                    continue
            self._swap(row, i, j, same)
            self.cost += delta
            if self.cost < best:
                if not self._unfair():
                    best, best_slots = self.cost, [r[:] for r in slots]
                elif self.cost < closest:
                    closest, closest_slots = self.cost, [r[:] for r in slots]
        if closest < best:  # an unfair draw with fewer repeats: evened out, it may still be better
            self._reset(closest_slots)
            self._even_out_bots()
            if self.cost < best:
                best, best_slots = self.cost, self.slots
        self.cost = best
        return best_slots

    def _unfair(self) -> int:
        """How far bot seats are from everyone within one of each other (0: fair)."""
        return sum(max(0, e - self.most) + max(0, self.least - e) for e in self.exposed)

    def _unfair_change(self, p: int, moved: int) -> int:
        e, least, most = self.exposed[p], self.least, self.most
        return max(0, e + moved - most) + max(0, least - e - moved) - max(0, e - most) - max(0, least - e)

    # The moves of the seats phase keep every partnership; each is applied at once, returns the
    # cost change, and is its own inverse.
    def _side_flip(self, row: list[int], base: int) -> int:
        """Both partnerships change sides: seats 0<->1 and 2<->3."""
        delta = self._delta_within(row, base, base + 1)
        self._swap(row, base, base + 1, True)
        delta += self._delta_within(row, base + 2, base + 3)
        self._swap(row, base + 2, base + 3, True)
        return delta

    def _partners_trade(self, row: list[int], i: int) -> int:
        """Partners trade seats: i <-> i^2 (the one partner of a bot moves to the bot's seat)."""
        delta = self._delta_within(row, i, i ^ 2)
        self._swap(row, i, i ^ 2, True)
        return delta

    def _conflicted(self, row: list[int], i: int) -> bool:
        a = row[i]
        if a == BOT:
            return False
        met = self.met[a]
        base = i - i % self.size
        return any(c != BOT and c != a and met[c] > 1 for c in row[base : base + self.size])

    def _delta_across(self, row: list[int], i: int, j: int) -> int:
        """The cost change of a (at i) and b (at j), at different tables, trading places."""
        size = self.size
        a, b = row[i], row[j]
        met_a, met_b = self.met[a], self.met[b]
        base_i, base_j = i - i % size, j - j % size
        pairs = 0
        for k in range(base_i, base_i + size):
            c = row[k]
            if c != BOT and c != a:
                pairs += (met_b[c] >= 1) - (met_a[c] >= 2)
        for k in range(base_j, base_j + size):
            c = row[k]
            if c != BOT and c != b:
                pairs += (met_a[c] >= 1) - (met_b[c] >= 2)
        delta = PAIR * pairs + self._delta_seats(a, i % size, j % size) + self._delta_seats(b, j % size, i % size)
        if self.partners:
            old_a, old_b = row[i ^ 2], row[j ^ 2]
            delta += PARTNER * (self._partner_change(a, old_a, old_b) + self._partner_change(b, old_b, old_a))
        moved = self.bots[j // size] - self.bots[i // size]
        if moved:  # the search may pass through unfair draws; only fair ones are kept
            delta += BOTS * (self._unfair_change(a, moved) + self._unfair_change(b, -moved))
        return delta

    def _delta_within(self, row: list[int], i: int, j: int) -> int:
        u, v = row[i], row[j]
        pi, pj = i % self.size, j % self.size
        delta = (self._delta_seats(u, pi, pj) if u != BOT else 0) + (self._delta_seats(v, pj, pi) if v != BOT else 0)
        if self.partners and j != i ^ 2:
            w, z = row[i ^ 2], row[j ^ 2]
            change = self._partner_change(u, w, z) if u != BOT else 0
            change += self._partner_change(v, z, w) if v != BOT else 0
            delta += PARTNER * change
        return delta

    def _delta_seats(self, p: int, old: int, new: int) -> int:
        if old == new:
            return 0
        counts = self.seats[p]
        return self.seat_weight * (2 * (counts[new] - counts[old]) + 2)

    def _partner_change(self, p: int, old: int, new: int) -> int:
        """Change in repeated partners when p's partner goes from ``old`` to ``new`` (either may be a bot)."""
        counts = self.together[p]
        return (new != BOT and counts[new] >= 1) - (old != BOT and counts[old] >= 2)

    def _swap(self, row: list[int], i: int, j: int, same: bool) -> None:
        size = self.size
        self._count_table(row, i - i % size, -1)
        if not same:
            self._count_table(row, j - j % size, -1)
        row[i], row[j] = row[j], row[i]
        self._count_table(row, i - i % size, 1)
        if not same:
            self._count_table(row, j - j % size, 1)

    def _count_table(self, row: list[int], base: int, sign: int) -> None:
        size = self.size
        table = row[base : base + size]
        humans = [p for p in table if p != BOT]
        for a, b in combinations(humans, 2):
            self.met[a][b] += sign
            self.met[b][a] += sign
        bots = size - len(humans)
        for position, p in enumerate(table):
            if p != BOT:
                self.seats[p][position] += sign
                self.exposed[p] += sign * bots
        if self.partners:
            for a, b in ((table[0], table[2]), (table[1], table[3])):
                if a != BOT and b != BOT:
                    self.together[a][b] += sign
                    self.together[b][a] += sign
