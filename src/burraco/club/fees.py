"""Fees and the prize pool (seed 003): pure arithmetic on attendance, adjustments and payments.

[ENG] A member owes the season's monthly fee for each calendar month in which he plays at least
one evening, due at his first evening of that month (seed 003: sums are collected at the first
evening of the month, before the games or during the break). Officers add adjustments (an extra
charge, or a waiver with a negative amount) with a reason. Of each monthly fee, the season's
``pool_share`` goes to the prize pool, which pays for the weekly prizes and the top-3 prizes
(the prizes are not money, seed 003: the pool buys them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from .errors import bad


@dataclass(frozen=True, slots=True)
class MonthlyFee:
    period: str
    """``YYYY-MM``."""
    due_on: date
    amount_cents: int


@dataclass(frozen=True, slots=True)
class Adjustment:
    due_on: date
    amount_cents: int
    reason: str


@dataclass(frozen=True, slots=True)
class Payment:
    paid_on: date
    amount_cents: int
    note: str


@dataclass(frozen=True, slots=True)
class MemberAccount:
    member: str
    fees: tuple[MonthlyFee, ...]
    adjustments: tuple[Adjustment, ...]
    payments: tuple[Payment, ...]

    @property
    def owed_cents(self) -> int:
        return sum(f.amount_cents for f in self.fees) + sum(
            a.amount_cents for a in self.adjustments
        )

    @property
    def paid_cents(self) -> int:
        return sum(p.amount_cents for p in self.payments)

    @property
    def balance_cents(self) -> int:
        """Still to pay (negative: paid in advance)."""
        return self.owed_cents - self.paid_cents

    def due_by(self, day: date) -> int:
        """What should have been paid by ``day`` and was not (at least 0)."""
        due = sum(f.amount_cents for f in self.fees if f.due_on <= day) + sum(
            a.amount_cents for a in self.adjustments if a.due_on <= day
        )
        return max(0, due - self.paid_cents)


def monthly_fees(evenings: Iterable[date], fee_cents: int) -> tuple[MonthlyFee, ...]:
    """One fee per month played, due at the first evening played in that month."""
    first: dict[str, date] = {}
    for day in sorted(evenings):
        first.setdefault(f"{day.year:04d}-{day.month:02d}", day)
    if fee_cents <= 0:
        return ()
    return tuple(MonthlyFee(p, d, fee_cents) for p, d in sorted(first.items()))


@dataclass(frozen=True, slots=True)
class FeesReport:
    accounts: tuple[MemberAccount, ...]
    """By member name."""
    pool_share_cents: int
    prizes_cents: int
    """The value of the prizes earned so far (weekly prizes and the top-3 prizes)."""

    @property
    def owed_cents(self) -> int:
        return sum(a.owed_cents for a in self.accounts)

    @property
    def paid_cents(self) -> int:
        return sum(a.paid_cents for a in self.accounts)

    @property
    def outstanding_cents(self) -> int:
        return sum(max(0, a.balance_cents) for a in self.accounts)

    @property
    def monthly_fees(self) -> int:
        return sum(len(a.fees) for a in self.accounts)

    @property
    def pool_cents(self) -> int:
        return self.monthly_fees * self.pool_share_cents

    @property
    def pool_left_cents(self) -> int:
        return self.pool_cents - self.prizes_cents

    def account(self, member: str) -> MemberAccount:
        for a in self.accounts:
            if a.member == member:
                return a
        raise KeyError(member)


def accounts(
    attendance: Mapping[str, Iterable[date]],
    adjustments: Mapping[str, Iterable[Adjustment]],
    payments: Mapping[str, Iterable[Payment]],
    fee_cents: int,
) -> tuple[MemberAccount, ...]:
    names = sorted(set(attendance) | set(adjustments) | set(payments))
    return tuple(
        MemberAccount(
            name,
            monthly_fees(attendance.get(name, ()), fee_cents),
            tuple(sorted(adjustments.get(name, ()), key=lambda a: a.due_on)),
            tuple(sorted(payments.get(name, ()), key=lambda p: p.paid_on)),
        )
        for name in names
    )


def euros(cents: int) -> str:
    """``1234`` -> ``12.34`` (negative amounts keep their sign)."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def parse_euros(text: str) -> int:
    """``12``, ``12.5``, ``12,50`` -> cents; refuses anything else."""
    cleaned = text.strip().replace(",", ".").removeprefix("€").strip()
    sign = -1 if cleaned.startswith("-") else 1
    cleaned = cleaned.lstrip("+-")
    whole, _, frac = cleaned.partition(".")
    if not whole.isdigit() or (frac and (not frac.isdigit() or len(frac) > 2)):
        raise bad(f"not an amount of euros: {text!r}", "amount", text=text)
    return sign * (int(whole) * 100 + int((frac or "0").ljust(2, "0")))
