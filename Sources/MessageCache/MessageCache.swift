// Message cache; see issue 3.
