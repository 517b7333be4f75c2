// Command implementations; see issue 2.
