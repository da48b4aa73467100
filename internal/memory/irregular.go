package memory

import (
	"strings"
	"sync"
)

// irregular maps the past forms of common irregular English verbs to the
// verb, so a question's "when did she go" finds "I went": Porter stemming
// joins "painted" and "paint" but not "went" and "go". Forms that are also
// common other words ("left", "found", "saw", "lay") are left out.
//
// Irregular plurals, and the words for close family and for a photo that
// people use interchangeably ("my nana", "her grandmother"; "a pic", "the
// picture"), are indexed and searched as one word, so "Leo's grandmother"
// finds "my grandma is coming over". Left out: "nan" (also NaN), "image"
// (a container image), "photograph" (its stem is also "photographer"'s).
//
// Built on first use, not at every process start.
var irregular = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	// verb: past forms
	for _, l := range strings.Split(`go went gone|run ran|buy bought|take took taken|make made|get got gotten|give gave given|
		meet met|feel felt|think thought|tell told|keep kept|begin began begun|write wrote written|come came|
		do did done|see seen|eat ate eaten|drink drank drunk|drive drove driven|fly flew flown|
		sing sang sung|swim swam swum|teach taught|catch caught|bring brought|fight fought|seek sought|
		sell sold|send sent|spend spent|build built|lose lost|win won|hold held|stand stood|understand understood|
		speak spoke spoken|break broke broken|choose chose chosen|wear wore worn|draw drew drawn|grow grew grown|
		know knew known|throw threw thrown|ride rode ridden|rise rose risen|forget forgot forgotten|hide hid hidden|
		sleep slept|leave|lead led|bleed bled|feed fed|hear heard|pay paid|say said|sit sat|lie lay lain|
		become became|forgive forgave forgiven|freeze froze frozen|steal stole stolen|wake woke woken|
		shake shook shaken|bite bit bitten|blow blew blown|dig dug|hang hung|shoot shot|shine shone|
		sink sank sunk|spin spun|stick stuck|sting stung|strike struck|swing swung|weep wept|
		bear bore born|mean meant|deal dealt|dream dreamt|learn learnt|burn burnt|light lit`, "|") {
		f := strings.Fields(l)
		for _, past := range f[1:] {
			if past != "lay" && past != "born" && past != "lit" && past != "bit" && past != "fed" && past != "shot" {
				m[past] = f[0]
			}
		}
	}
	// plurals, family, photos: the word they are indexed as first
	for _, l := range strings.Split(`child children kid kids|man men|woman women|foot feet|tooth teeth|mouse mice|
		wife wives|grandma grandmother grandmothers granny grannies gran nana grandmas|
		grandpa grandfather grandfathers grandad granddad grandpas|mum mother mothers mom mommy mummy mums moms|
		dad father fathers daddy dads|photo photos picture pictures pic pics`, "|") {
		f := strings.Fields(l)
		for _, w := range f[1:] {
			m[w] = f[0]
		}
	}
	return m
})
