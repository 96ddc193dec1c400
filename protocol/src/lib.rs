//! Messages between a Rami host and the phones (to be written: issue 5).
