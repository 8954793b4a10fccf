"""``burraco club``: the club manager from the command line (docs/club.md).

Every action works on the platform's database (``--database-url``, or SQLite in ``--data-dir``
as ``burraco serve``) through ``burraco.club.service``: one transaction per action, bad input
refused with one sentence on standard error (exit 1) and nothing changed. Changes are made as
the member named by ``--as`` (or ``BURRACO_CLUB_AS``), who must be one of the club's officers
once the club has one; reading needs no name.

Modules: ``parser`` (the actions and their arguments, light to import), ``arguments`` (their
types), ``running`` (the service and the refusals) and the handlers by group: ``members``,
``seasons`` (seasons, calendar, evenings), ``evening`` (check-in to results), ``season_reports``
(rankings, standings, fees, prizes, reports, audit, e-mails).
"""

from .parser import add_parser

__all__ = ["add_parser"]
