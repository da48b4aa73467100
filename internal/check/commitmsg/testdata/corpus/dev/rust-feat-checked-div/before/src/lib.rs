//! Fixed-point decimal numbers with four places.

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fixed(i64);

impl Fixed {
    pub const SCALE: i64 = 10_000;

    pub fn from_int(n: i64) -> Self {
        Fixed(n * Self::SCALE)
    }

    pub fn checked_add(self, o: Fixed) -> Option<Fixed> {
        self.0.checked_add(o.0).map(Fixed)
    }
}
