"""Fixture generation: who sits at which table, in which seat, round by round, for a league season.

Pure Python, no Django. A schedule is searched for rather than built by a formula, because the
constraints pull against each other: few repeated opponents, everyone in each seat position (who
deals first) about equally often, in Karnoffel the same partner as rarely as possible, and the
seats that bots fill spread fairly. Byes (when the organizer chose them) rotate through a shuffled
order, so nobody sits out twice before everyone has sat out once.

Who sits together is searched by simulated annealing over swaps of two entrants in the same round,
from a greedy start (each entrant to the table where they met the fewest). Cases with a known
perfect answer start from it instead: a round robin (circle method) for tables of two, and an affine
plane for q*q entrants at tables of q (16 entrants at four tables of four meet nobody twice in five
rounds). Seat positions are then dealt exactly (an equitable edge colouring: everyone's counts per
position differ by at most one). In Karnoffel a seat also decides the partner, so there a last
search phase moves seats inside tables, weighing seat balance against repeated partners (partners
win: a long season may leave someone two deals short). Everything random comes from ``seed``: the
same arguments give the same schedule.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

# Weights of the cost terms (each grows with the square of a count, so it spreads): opponents and
# partners first, then bot seats. Seat positions count only in Karnoffel's last phase.
PAIR = 12
PARTNER = 12
SEAT = 3
BOTS = 8

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
    slots, byes = _start(n, table_size, rounds, caps, per_round_byes, rng)
    search = _Search(slots, byes, n=n, size=table_size, caps=caps, partners=partners, rng=rng)
    best = search.run()
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
    """Pairs of entrants who share a table more than once, counted once per extra meeting."""
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


def _start(
    n: int, size: int, rounds: int, caps: list[int], per_round_byes: int, rng: random.Random
) -> tuple[list[list[int]], list[list[int]]]:
    """A first schedule (slots per round, -1 for bots) and the byes, which the search keeps."""
    order = list(range(n))
    rng.shuffle(order)
    if size == 2:
        return _round_robin(order, rounds, caps, per_round_byes)
    q = size
    if n == q * q and q in _FIELDS:
        classes = _affine_plane(q)
        rng.shuffle(classes)
        slots = [[order[p] for line in classes[r] for p in line] for r in range(min(rounds, len(classes)))]
        slots += [_random_round(list(range(n)), size, caps, rng) for _ in range(rounds - len(slots))]
        return slots, [[] for _ in range(rounds)]
    byes = [[order[(r * per_round_byes + i) % n] for i in range(per_round_byes)] for r in range(rounds)]
    return _greedy(n, size, caps, byes, rng), byes


def _random_round(players: list[int], size: int, caps: list[int], rng: random.Random) -> list[int]:
    rng.shuffle(players)
    row: list[int] = []
    start = 0
    for cap in caps:
        table = players[start : start + cap] + [BOT] * (size - cap)
        rng.shuffle(table)
        row += table
        start += cap
    return row


def _greedy(n: int, size: int, caps: list[int], byes: list[list[int]], rng: random.Random) -> list[list[int]]:
    """Round by round, each entrant to the table (of a few sampled) where they met the fewest before."""
    met = [[0] * n for _ in range(n)]
    slots = []
    for out in byes:
        skip = set(out)
        players = [p for p in range(n) if p not in skip]
        rng.shuffle(players)
        tables: list[list[int]] = [[] for _ in caps]
        open_ = list(range(len(caps)))
        for p in players:
            row = met[p]
            candidates = open_ if len(open_) <= 8 else rng.sample(open_, 8)
            k = min(candidates, key=lambda t: sum(row[c] for c in tables[t]))
            tables[k].append(p)
            if len(tables[k]) == caps[k]:
                open_.remove(k)
        row_out: list[int] = []
        for table in tables:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
            seats = table + [BOT] * (size - len(table))
            rng.shuffle(seats)
            row_out += seats
        slots.append(row_out)
    return slots


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


# Prime-power fields small enough for tables: addition and multiplication tables.
def _prime_field(p: int) -> tuple[list[list[int]], list[list[int]]]:
    return [[(a + b) % p for b in range(p)] for a in range(p)], [[(a * b) % p for b in range(p)] for a in range(p)]


_GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]  # GF(2)[x] / (x^2 + x + 1)
_FIELDS = {
    3: _prime_field(3),
    4: ([[a ^ b for b in range(4)] for a in range(4)], _GF4_MUL),
    5: _prime_field(5),
    7: _prime_field(7),
}


def _affine_plane(q: int) -> list[list[list[int]]]:
    """The q+1 parallel classes of AG(2, q): q*q points, lines of q; two points share exactly one line."""
    add, mul = _FIELDS[q]
    point = [[x * q + y for y in range(q)] for x in range(q)]
    classes = [[[point[x][add[mul[m][x]][c]] for x in range(q)] for c in range(q)] for m in range(q)]
    classes.append([[point[c][y] for y in range(q)] for c in range(q)])
    return classes


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


def _even_squares(total: int, parts: int) -> int:
    """The smallest sum of squares of ``parts`` non-negative integers adding up to ``total``."""
    q, r = divmod(total, parts)
    return r * (q + 1) ** 2 + (parts - r) * q * q


def _even_repeats(meetings: int, pairs: int) -> int:
    """The fewest extra meetings (weighted m(m-1)/2 per pair) when ``meetings`` spread over ``pairs``."""
    q, r = divmod(meetings, pairs)
    return r * (q + 1) * q // 2 + (pairs - r) * q * (q - 1) // 2


class _Search:
    """The schedule's cost kept up to date under swaps; ``run`` anneals and returns the best slots.

    First who sits together (opponents, partners, bots); then, in Karnoffel, seat positions by moves
    that keep every partnership (partners trade seats, or both partnerships change sides). Without
    partners, seat positions are dealt afterwards by _balance_seats, exactly.
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
    ) -> None:
        self.slots, self.byes, self.caps, self.n, self.size, self.rng = slots, byes, caps, n, size, rng
        self.partners = partners
        self.seat_weight = 0  # seats count only in the last phase
        self.bots = [size - cap for cap in caps]
        self.met = [[0] * n for _ in range(n)]
        self.together = [[0] * n for _ in range(n)]
        self.seats = [[0] * size for _ in range(n)]
        self.exposed = [0] * n  # bot seats at this entrant's tables so far
        self._reset(slots)

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
        self.cost = together + seats
        together_floor, seats_floor = self._floors()
        self.floor = (together if self.seat_weight else together_floor) + seats_floor

    def _parts(self) -> tuple[int, int]:
        """The cost of who sits together (opponents, partners, bots) and of seat positions."""
        pairs = sum(m * (m - 1) // 2 for row in self.met for m in row) // 2
        partnered = sum(m * (m - 1) // 2 for row in self.together for m in row) // 2
        exposed = sum(e * e for e in self.exposed)
        seats = sum(c * c for row in self.seats for c in row)
        return PAIR * pairs + PARTNER * partnered + BOTS * exposed, self.seat_weight * seats

    def _floors(self) -> tuple[int, int]:
        """Lower bounds of both parts; reaching them ends the search early."""
        n, rounds, caps = self.n, len(self.slots), self.caps
        meetings = rounds * sum(cap * (cap - 1) // 2 for cap in caps)
        together = PAIR * _even_repeats(meetings, n * (n - 1) // 2)
        if self.partners:
            partnered = rounds * sum(max(0, cap - 2) for cap in caps)
            together += PARTNER * _even_repeats(partnered, n * (n - 1) // 2)
        exposure = rounds * sum(bots * cap for bots, cap in zip(self.bots, caps, strict=True))
        together += BOTS * _even_squares(exposure, n)
        sat_out = Counter(p for out in self.byes for p in out)
        return together, self.seat_weight * sum(_even_squares(rounds - sat_out[p], self.size) for p in range(n))

    def run(self) -> list[list[int]]:
        rounds, width = len(self.slots), len(self.slots[0])
        # A start that is already right about who meets whom (a round robin, an affine plane) is
        # kept: moving people between tables could only spoil it.
        best = self.slots
        if self.cost > self.floor and (width > self.size or self.partners):
            # Capped so that a division of hundreds is drawn in seconds; small ones get the full search.
            best = self._anneal(min(1000 + 100 * rounds * self.n, 300_000), mode="tables")
        if not self.partners:
            return best
        self.seat_weight = SEAT
        self._reset(best)
        return self._anneal(2000 * rounds, mode="seats")

    def _anneal(self, budget: int, *, mode: Literal["tables", "seats"]) -> list[list[int]]:
        rng, slots, size = self.rng, self.slots, self.size
        rounds, width = len(slots), len(slots[0])
        hot, cold = (1.0 if mode == "seats" else PAIR / 2), 0.3
        best, best_slots = self.cost, [row[:] for row in slots]
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
                best, best_slots = self.cost, [r[:] for r in slots]
        self.cost = best
        return best_slots

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
        size = self.size
        a, b = row[i], row[j]
        met_a, met_b = self.met[a], self.met[b]
        base_i, base_j = i - i % size, j - j % size
        pairs = 0
        for k in range(base_i, base_i + size):
            c = row[k]
            if c != BOT and c != a:
                pairs += met_b[c] - met_a[c] + 1
        for k in range(base_j, base_j + size):
            c = row[k]
            if c != BOT and c != b:
                pairs += met_a[c] - met_b[c] + 1
        delta = PAIR * pairs + self._delta_seats(a, i % size, j % size) + self._delta_seats(b, j % size, i % size)
        if self.partners:
            old_a, old_b = row[i ^ 2], row[j ^ 2]
            delta += PARTNER * (self._partner_change(a, old_a, old_b) + self._partner_change(b, old_b, old_a))
        moved = self.bots[j // size] - self.bots[i // size]
        if moved:
            ea, eb = self.exposed[a], self.exposed[b]
            delta += BOTS * (2 * moved * (ea - eb) + 2 * moved * moved)
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
        """Cost change of p's partner going from ``old`` to ``new`` (either may be a bot)."""
        counts = self.together[p]
        return (counts[new] if new != BOT else 0) - (counts[old] - 1 if old != BOT else 0)

    def _swap(self, row: list[int], i: int, j: int, same: bool) -> None:
        size = self.size
        self._uncount_table(row, i - i % size)
        if not same:
            self._uncount_table(row, j - j % size)
        row[i], row[j] = row[j], row[i]
        self._count_table(row, i - i % size, 1)
        if not same:
            self._count_table(row, j - j % size, 1)

    def _uncount_table(self, row: list[int], base: int) -> None:
        self._count_table(row, base, -1)

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
