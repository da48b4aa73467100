package service

// ScrubForTest exposes scrub to the external tests.
var ScrubForTest = scrub
