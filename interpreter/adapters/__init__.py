"""Any game as researchers' tools see games. Takes a loaded game (``interpreter.api``) and gives
an OpenSpiel game (``openspiel.load_game``) or a PettingZoo AEC environment (``pettingzoo.env``)."""
