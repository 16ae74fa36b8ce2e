"""``rules serve``: tables hosted on a server, played in the browser or the terminal.

The server is the only holder of each table's state and its only clock. Each connection sees
its seat's view only (a spectator the public view); every accepted move is stamped on arrival
and written to the table's record before it is played. Modules: ``clock`` (the table's clock),
``tokens`` (per-seat secrets), ``protocol`` (messages, their checks, every limit), ``hints``
(where a move's cards and piles are, for clicks and drags), ``hosted_session`` (moves written
before they are played), ``hosted`` (one table: seats, moves, views, stopping), ``record_file``
(the record on disk: locked, appended to, written ahead), ``seats_file`` (the tokens beside it),
``resume`` (a table restored from its record), ``registry`` (the tables of a server),
``console`` (what the host is told), ``connection`` (one socket and its send queue), ``hub``
(the connections of each table and what they are sent), ``app`` (the Starlette routes and the
WebSocket endpoint), ``runner`` (uvicorn), ``join`` (the terminal client).
"""
