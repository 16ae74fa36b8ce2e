"""``rules serve``: tables hosted on a server, played in the browser or the terminal.

The server is the only holder of each table's state and its only clock. Each connection sees
its seat's view only (a spectator the public view); every accepted move is stamped on arrival
and appended to the table's record. Modules: ``clock`` (the table's clock), ``tokens`` (per-seat
secrets), ``protocol`` (messages and their checks), ``hints`` (where a move's cards and piles
are, for clicks and drags), ``hosted`` (one table: seats, moves, views), ``resume`` (a table
restored from its record), ``registry`` (the tables of a server), ``app`` (the Starlette routes
and the WebSocket endpoint), ``runner`` (uvicorn), ``join`` (the terminal client).
"""
