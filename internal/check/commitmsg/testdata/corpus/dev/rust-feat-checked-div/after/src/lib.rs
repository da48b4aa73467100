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

    pub fn checked_mul(self, o: Fixed) -> Option<Fixed> {
        let p = (self.0 as i128) * (o.0 as i128) / (Self::SCALE as i128);
        i64::try_from(p).ok().map(Fixed)
    }

    pub fn checked_div(self, o: Fixed) -> Option<Fixed> {
        if o.0 == 0 {
            return None;
        }
        let q = (self.0 as i128) * (Self::SCALE as i128) / (o.0 as i128);
        i64::try_from(q).ok().map(Fixed)
    }
}
