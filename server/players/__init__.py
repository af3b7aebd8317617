"""Players who come back: accounts, per-rack ratings, statistics and leaderboards.

The pure core — `ratings` (the arithmetic), `names` (what may be claimed), `results`
(what a room reports), `store` (the `PlayerStore` interface) — and the parts that do
I/O: the SQLite and Redis stores, password hashing, account tokens and the `Players`
service (`service`) that the rooms and the HTTP API (`server/edge/api.py`) call.
See docs/RATINGS.md and docs/ACCOUNTS.md.
"""
