package memory

import (
	"fmt"
	"testing"
)

func TestCues(t *testing.T) {
	for text, want := range map[string]string{
		"I DID IT. 2 hours 4 minutes!":                           "[_time _number]",
		"Biscuit knocked my monstera off at 4am yesterday.":      "[_time _number]",
		"I flew out to Lisbon last week to help my aunt.":        "[_time _place _name]",
		"We've picked the date, 19th of August. Save it.":        "[_time _number _name]",
		"Guess who is now officially a band 6?":                  "[_number]",
		"That cat is a menace. Did the plant survive?":           "[]",
		"You may be right, march on.":                            "[]",
		"Back in May we went to the coast.":                      "[_time _place _name]",
		"My teacher is this guy Dave who used to play in a band": "[_name]",
		"It was three in a row, then four off.":                  "[_number]",
		"She was born in 2021.":                                  "[_time _number]",
		"Caroline: hi there":                                     "[]",
		"I think the next one is better.":                        "[]",
		"See you next Tuesday.":                                  "[_time _name]",
	} {
		if got := fmt.Sprint(Cues(text)); got != want {
			t.Errorf("Cues(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestAnswerCue(t *testing.T) {
	for q, want := range map[string]string{
		"When did Hannah get promoted?":                  CueTime,
		"And when did Leo finish the canoe?":             CueTime,
		"What year did Kwame open the café?":             CueTime,
		"How many chords does Leo know?":                 CueNumber,
		"How long did the race take Hannah?":             CueNumber,
		"Where did Leo fly to last week?":                CuePlace,
		"Which city did Leo visit?":                      CuePlace,
		"Who is teaching Leo guitar?":                    CueName,
		"What is the name of Hannah's cat?":              CueName,
		"What is Hannah's niece called?":                 CueName,
		"What did Hannah do with Maya when she visited?": "",
		"Is Leo good with his hands?":                    "",
		"Whose ring did Jonah give Sofia?":               "",
		"how does the retry loop back off":               "",
		"":                                               "",
	} {
		if got := AnswerCue(q); got != want {
			t.Errorf("AnswerCue(%q) = %q, want %q", q, got, want)
		}
	}
}
