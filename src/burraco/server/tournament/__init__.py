"""The server's side of online tournaments, in parts (``burraco.server.tournaments`` holds the
manager that runs them):

- ``records``: the store's rows as the pure ``burraco.tournament.TournamentState``, and the
  server tables a round's table needs;
- ``views``: the JSON of a tournament and of its summary;
- ``pushes``: who watches a tournament, and the messages and notices sent to them;
- ``registration``: the registration requests (players, pairs, bots);
- ``scheduler``: the clock of scheduled tournaments;
- ``errors``: ``TournamentError``.

Every decision (pairings, eliminations, knockout rebuilds and tie-breaks, forfeits, scores) is
the state's; docs/tournaments.md says where each lives.
"""
