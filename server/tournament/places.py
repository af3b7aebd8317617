"""A guest's places in tournaments follow them into an account.

A guest who entered a tournament and then made an account keeps their player id, but the
place still said "(guest)" and was seeded as one; a guest who logged in to an account they
already had became another player, and their place was left behind under the guest's id:
the page offered to register again, and the same person, entered twice, was drawn against
themselves. The accounts API tells this on either sign-in (`server.edge.api.GuestPlaces`);
the places in tournaments not yet started become the account's (`bracket.hand_over`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from server.players.ratings import START
from server.players.store import PlayerStoreError
from server.tournament.api import SeedRating
from server.tournament.service import TournamentService
from server.tournament.store import TournamentStoreError

log = logging.getLogger(__name__)


class TournamentPlaces:
    """What the accounts API calls once a guest has signed in to an account."""

    def __init__(
        self,
        service: TournamentService,
        rating_of: Callable[[str], Awaitable[SeedRating | None]],
        is_account: Callable[[str], Awaitable[bool]],
    ) -> None:
        """`rating_of`: an account's rating for seeding, as registering reads it;
        `is_account`: whether a player id is an account's."""
        self.service = service
        self.rating_of = rating_of
        self.is_account = is_account

    async def signed_in(self, guest: str, account: str) -> None:
        """Hands `guest`'s places over to `account`. Never raises: the sign-in has
        happened whatever becomes of the places (with the stores down they stay the
        guest's, and the guest's session still holds them).

        A session token outlives the guest it was given to: one who made an account keeps
        their id, and their old session token names the account. Sent with a login to
        another account it must move nothing (the first account's places are its own)."""
        try:
            if guest != account and await self.is_account(guest):
                return
            places = await self.service.guest_places(guest)
            if not places:
                return
            seed = await self.rating_of(account)
            rating, provisional = (START, True) if seed is None else seed
            moved = await self.service.hand_over(places, guest, account, rating, provisional)
        except (TournamentStoreError, PlayerStoreError) as exc:
            log.warning("a guest's tournament places stay theirs: %s", exc)
            return
        except Exception:  # the login is answered whatever went wrong here
            log.exception("a guest's tournament places were not handed over")
            return
        for tournament in moved:
            log.info("a guest's place in tournament %s is an account's now", tournament.id)
