"""A published result's history: its versions (what changed, from which commit, when
benchdb saw it), tombstones, and the pages and feeds that show them."""
