// SQLite wrapper; see issue 3.
