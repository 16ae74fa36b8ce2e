"""The full-screen table (Textual), drawn from one seat's view: ``app`` runs it; ``board``, ``status``, ``builder`` and ``controller`` do the work without Textual."""
