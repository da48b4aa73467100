pub struct Meter {
    total: u32,
}

impl Meter {
    pub fn new() -> Self {
        Meter { total: 0 }
    }

    pub fn add(&mut self, n: u32) {
        // Long-running meters overflowed and panicked in debug builds.
        self.total = self.total.saturating_add(n);
    }

    pub fn total(&self) -> u32 {
        self.total
    }
}
