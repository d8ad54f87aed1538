"""Write the SQL text of a database as an older scorepad left it: one match of two hands.

Run it with the older release's source first on the path, for example for 0.1.0 (commit e716259):

    git archive e716259 | tar -x -C /tmp/scorepad-0.1.0
    PYTHONPATH=/tmp/scorepad-0.1.0 python tests/data/make_old_database.py > tests/data/scorepad-0.1.0.sql

Each hand is the README's classic example: We 620 melded + a natural canasta 500 + going out 100
= 1220, They 260 - 95 left in hand = 165. The SQL text (sqlite3's ``.dump``) is kept rather than
a binary file, so what the old release stored can be read and reviewed.
"""

import sqlite3
import sys
import tempfile
from pathlib import Path

from scorepad import canasta, store
from scorepad.db import connect, migrate
from scorepad.documents import Side

HAND = {
    "entries": [
        {"canastas": {"natural": 1}, "melded_points": 620, "went_out": True},
        {"melded_points": 260, "hand_points": 95},
    ]
}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "old.db")
        migrate(path)
        db = connect(path)
        try:
            sides = [Side("We", ("Ann", "Bob")), Side("They", ("Cy", "Di"))]
            match_id = store.create_match(db, canasta.rules_for("classic"), sides, title="Friday")
            version = 1
            for _ in range(2):
                version = store.add_hand(db, match_id, canasta.Hand.from_dict(HAND), version)
        finally:
            db.close()
        with sqlite3.connect(path) as dump:
            sys.stdout.write("\n".join(dump.iterdump()) + "\n")


if __name__ == "__main__":
    main()
