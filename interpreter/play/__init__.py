"""What a player meets: the table that drives a game (turns, or free play on a clock), records and
replay, the text of a view, and the terminal. Takes a loaded game and bots; gives a played game."""
