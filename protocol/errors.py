"""Every error code the server can send, with the meaning a client may rely on.

Codes are stable strings: clients branch on them, humans read the message next to
them. `protocol/README.md` lists the same table; a test keeps the two in step.
"""

from __future__ import annotations

from typing import Final

# Frames and messages
BAD_FRAME: Final = "bad_frame"
BAD_MESSAGE: Final = "bad_message"
FRAME_TOO_BIG: Final = "frame_too_big"
HELLO_REQUIRED: Final = "hello_required"
ALREADY_HELLO: Final = "already_hello"
VERSION_MISMATCH: Final = "version_mismatch"
BAD_TOKEN: Final = "bad_token"
NAME_TAKEN: Final = "name_taken"
BAD_NAME: Final = "bad_name"
RATE_LIMITED: Final = "rate_limited"
# Lobby and rooms
NO_SUCH_ROOM: Final = "no_such_room"
BAD_INVITE: Final = "bad_invite"
ROOM_FULL: Final = "room_full"
SPECTATORS_FULL: Final = "spectators_full"
TOO_MANY_ROOMS: Final = "too_many_rooms"
NAME_CONFUSABLE: Final = "name_confusable"
ALREADY_IN_ROOM: Final = "already_in_room"
NOT_IN_ROOM: Final = "not_in_room"
NOT_A_PLAYER: Final = "not_a_player"
ALREADY_QUEUED: Final = "already_queued"
NOT_QUEUED: Final = "not_queued"
ACCOUNT_REQUIRED: Final = "account_required"
# The table
NOT_STARTED: Final = "not_started"
NOT_YOUR_TURN: Final = "not_your_turn"
NO_BALL_IN_HAND: Final = "no_ball_in_hand"
BAD_PLACEMENT: Final = "bad_placement"
BAD_SHOT: Final = "bad_shot"
PUSH_OUT_NOT_ALLOWED: Final = "push_out_not_allowed"
CHOICE_PENDING: Final = "choice_pending"
NO_CHOICE_PENDING: Final = "no_choice_pending"
NO_LAG: Final = "no_lag"
ALREADY_LAGGED: Final = "already_lagged"
NO_LAG_CHOICE: Final = "no_lag_choice"
NO_SHOT_CLOCK: Final = "no_shot_clock"
NO_EXTENSIONS: Final = "no_extensions"
NO_STALEMATE_PROPOSAL: Final = "no_stalemate_proposal"
MATCH_OVER: Final = "match_over"
MATCH_NOT_OVER: Final = "match_not_over"
INVALID_ACTION: Final = "invalid_action"
SEAT_TAKEN: Final = "seat_taken"
MATCH_STARTED: Final = "match_started"
CODE_REQUIRED: Final = "code_required"
BAD_SEAT_INVITE: Final = "bad_seat_invite"
ALREADY_SEATED: Final = "already_seated"
STALEMATE_TOO_EARLY: Final = "stalemate_too_early"
# The server
SHUTTING_DOWN: Final = "shutting_down"
ROOM_MOVING: Final = "room_moving"
INTERNAL: Final = "internal"
# The practice table
PRACTICE_ONLY: Final = "practice_only"
NOT_AT_PRACTICE: Final = "not_at_practice"
BALLS_OVERLAP: Final = "balls_overlap"
OFF_BED: Final = "off_bed"
IN_POCKET: Final = "in_pocket"
TOO_MANY_BALLS: Final = "too_many_balls"
NO_SUCH_BALL: Final = "no_such_ball"
NOT_ON_TABLE: Final = "not_on_table"
NO_CUE_BALL: Final = "no_cue_ball"
BAD_LAYOUT: Final = "bad_layout"
NOTHING_TO_UNDO: Final = "nothing_to_undo"
NOTHING_TO_REDO: Final = "nothing_to_redo"
NOTHING_TO_RETRY: Final = "nothing_to_retry"

#: code -> what it means (the README table is written from this).
ERROR_CODES: Final[dict[str, str]] = {
    BAD_FRAME: "The frame is not a MessagePack binary frame (text frames and malformed bytes).",
    BAD_MESSAGE: "The frame decoded but does not match any message schema: unknown `t`, a "
    "missing field, an unknown field, a wrong type, a value out of range or too long. "
    "The message names the offending path, e.g. `$.speed`.",
    FRAME_TOO_BIG: "The frame exceeds the size limit; the connection closes with 1009.",
    HELLO_REQUIRED: "The first message on a connection must be `hello`.",
    ALREADY_HELLO: "`hello` was already accepted on this connection.",
    VERSION_MISMATCH: "The client's protocol version is not the server's; the connection "
    "closes with 1008 after this error.",
    BAD_TOKEN: "The session token is not one this service signed, or it has expired; send "
    "`hello` without a token to start a new session.",
    NAME_TAKEN: "The name belongs to an account (the same name after case folding, or one "
    "that looks the same): log in to play under it (`hello` with the account's token), or say "
    "`hello` with another name. A guest is refused the same way a name kept for the computer "
    'players or the service ("Bot 2", "Referee"). Nothing changed.',
    BAD_NAME: "A guest's name in `hello` (with a session token or without) is not one a "
    "name chosen now may be: 3–20 letters (of one script), digits 0–9, spaces, `.`, `_` "
    "or `-`, with a letter among them and a letter or digit at either end (`protocol/text.py`, "
    "`NAME_MIN`–`NAME_MAX`; the rule an account's name follows too). The message says what "
    "is wrong; say `hello` again with another name. Nothing changed.",
    RATE_LIMITED: "Too many messages, aim previews or chat messages in a short time (see "
    "Limits); the request was not handled. Wait and try again; a client that keeps sending "
    "is disconnected (1008).",
    NO_SUCH_ROOM: "No room with that id (or it has closed).",
    BAD_INVITE: "No private room with that invite code, or a private room joined without it.",
    ROOM_FULL: "Both seats are taken; join as a spectator instead.",
    SPECTATORS_FULL: "The room has reached its spectator limit.",
    TOO_MANY_ROOMS: "No new room now: the server holds as many rooms as it may, or your "
    "address has as many open rooms as it may (see Limits). Join a room, or leave yours "
    "first; nothing changed.",
    NAME_CONFUSABLE: "Your name could pass for the name of a player seated in that room, or "
    "at a tournament's table for the name a seat is kept under (the same name, or one that "
    "looks the same: other case, lookalike letters of another script); say `hello` again "
    "with another name to join it.",
    ALREADY_IN_ROOM: "The connection is already in a room; `leave` first.",
    NOT_IN_ROOM: "The request needs a room and the connection is in none.",
    NOT_A_PLAYER: "Only a seated player may do this; spectators never act on the table (O1).",
    ALREADY_QUEUED: "The player is already waiting for a quick match.",
    NOT_QUEUED: "Cancelling a quick match the player is not waiting for.",
    ACCOUNT_REQUIRED: "Rated rooms and rated quick matches are for players with an account: "
    "log in (`hello` with an account token) first. Nothing changed.",
    NOT_STARTED: "The match has not started (seats not both filled and ready, or the lag "
    "is still being decided).",
    NOT_YOUR_TURN: "It is the other player's turn (O1).",
    NO_BALL_IN_HAND: "The cue ball may only be placed with ball in hand (R10).",
    BAD_PLACEMENT: "The cue ball may not go there: off the playing surface, touching or "
    "overlapping a ball, or outside the kitchen on a break (R10). Nothing moved.",
    BAD_SHOT: "The shot input is out of the documented ranges or not finite (O2), "
    "including a speed above 13·cos(elevation) or a tip offset of one ball radius or more; "
    "the message states the limit. Nothing changed.",
    PUSH_OUT_NOT_ALLOWED: "A push-out may only be declared on the shot right after a legal "
    "break (R6).",
    CHOICE_PENDING: "The incoming player must first choose shoot or pass (R6.4).",
    NO_CHOICE_PENDING: "There is no shoot/pass choice to make.",
    NO_LAG: "There is no lag being played in this room.",
    ALREADY_LAGGED: "This player has already played the lag shot.",
    NO_LAG_CHOICE: "There is no choice of the first breaker to make (R3, O6).",
    NO_SHOT_CLOCK: "The room plays without a shot clock.",
    NO_EXTENSIONS: "No shot-clock extensions left in this game (O3).",
    NO_STALEMATE_PROPOSAL: "There is no stalemate proposal from the opponent to accept (R14).",
    MATCH_OVER: "The match is over; only chat, rematch and leave are possible.",
    MATCH_NOT_OVER: "A rematch can only be asked for once the match is over.",
    INVALID_ACTION: "The referee refused the action for another reason given in the message.",
    SEAT_TAKEN: "`sit`: the seat asked for is taken (another seat may be free).",
    MATCH_STARTED: "`sit`: the match has begun; a seat is taken only while the room waits "
    "for a player.",
    CODE_REQUIRED: "`sit` in a private room needs the room's invite code or a seat invite.",
    BAD_SEAT_INVITE: "`sit`: the seat invite is not this room's.",
    ALREADY_SEATED: "`sit`: the player already holds a seat at this table.",
    STALEMATE_TOO_EARLY: "A stalemate may be proposed only after three innings in a row "
    "without a ball pocketed (R14; `TableView.stalemate_open`).",
    SHUTTING_DOWN: "The server is shutting down; reconnect (the session token still works).",
    ROOM_MOVING: "The room is moving to another server (the one running it stopped or "
    "failed): the request was not handled and nothing changed. Send it again once the room "
    "is back (a `notice` of kind `back` follows its fresh `snapshot`).",
    INTERNAL: "The server failed to handle the request; nothing changed. Please report it.",
    PRACTICE_ONLY: "That request is for a practice table; this is a match table.",
    NOT_AT_PRACTICE: "A practice table has one player and no match: no ready, lag, choice, "
    "concession, stalemate, extra time, rematch, push-out or chat there.",
    BALLS_OVERLAP: "A ball may not go there: it would overlap another ball (touching is "
    "fine). Nothing moved.",
    OFF_BED: "A ball may not go there: it would not rest on the playing surface (off the "
    "bed, or into a cushion). Nothing moved.",
    IN_POCKET: "A ball may not go there: the spot is in a pocket. Nothing moved.",
    TOO_MANY_BALLS: "A layout holds at most ten balls, the cue ball and the 1 to the 9, each "
    "once. Nothing changed.",
    NO_SUCH_BALL: "No ball has that number: balls are 0 (the cue ball) to 9. Nothing changed.",
    NOT_ON_TABLE: "That ball is not on the table (it is in the tray). Nothing changed.",
    NO_CUE_BALL: "The cue ball must be on the table to shoot; put it there first.",
    BAD_LAYOUT: "The practice link is malformed or names an impossible layout; the message "
    "says why. Nothing changed.",
    NOTHING_TO_UNDO: "There is nothing to undo on this practice table.",
    NOTHING_TO_REDO: "There is nothing to redo: nothing was undone since the last change.",
    NOTHING_TO_RETRY: "No shot has been played on this practice table yet.",
}
