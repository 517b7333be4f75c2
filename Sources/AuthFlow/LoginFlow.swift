// The login flow; see issue 2.
