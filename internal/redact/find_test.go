package redact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFindSecrets_AgreesWithRedact: replacing what FindSecrets reports with
// markers gives exactly Redact's output, over every shape Redact's tests use.
func TestFindSecrets_AgreesWithRedact(t *testing.T) {
	texts := []string{
		"export AWS_ACCESS_KEY_ID=" + fakeAWSKeyID,
		"aws_secret_access_key = " + fakeAWSSecret,
		"git clone with " + fakeGitHubPAT + " and " + fakeGoogleKey,
		"GITHUB_TOKEN=" + fakeFineGrained,
		"bot: " + fakeSlackBot + "\npost to " + fakeSlackHook,
		"OPENAI_API_KEY=" + fakeOpenAIProj + "\nANTHROPIC_API_KEY=\"" + fakeAnthropic + "\"",
		"stripe.api_key = '" + fakeStripe + "'",
		"Authorization: Bearer " + fakeJWT,
		"key:\n" + fakePEM + "\nthen restart",
		"DATABASE_URL=postgres://app:S3cretPassw0rd@db.internal:5432/app",
		"token=" + fakeGitHubPAT, // the specific kind, not the credential
		"DB_PASSWORD=hunter22xyz\n  token: abc123XYZ789\n",
		"the token bucket and the password reset flow", // nothing
	}
	for _, text := range texts {
		want, r := Redact(text)
		got := FindSecrets(text)
		if len(got) != r.Total {
			t.Errorf("FindSecrets(%q) found %d, Redact %d (%v)", text, len(got), r.Total, r)
		}
		var b strings.Builder
		at := 0
		for _, s := range got {
			b.WriteString(text[at:s.Start])
			b.WriteString(marker(s.Kind))
			at = s.End
		}
		b.WriteString(text[at:])
		if diff := cmp.Diff(want, b.String()); diff != "" {
			t.Errorf("FindSecrets(%q) marked differently from Redact (-redact +find):\n%s", text, diff)
		}
	}
}

func TestFindSecrets_KindAndSpan(t *testing.T) {
	text := "x := \"" + fakeGitHubPAT + "\""
	got := FindSecrets(text)
	want := []Secret{{Kind: KindGitHubToken, Start: 6, End: 6 + len(fakeGitHubPAT)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FindSecrets (-want +got):\n%s", diff)
	}
}

// TestFindSecrets_Linear: many candidates of several rules stay fast
// (the claimed spans merge in one pass per rule).
func TestFindSecrets_Linear(t *testing.T) {
	text := strings.Repeat(fakeAWSKeyID+" token="+fakeGitHubPAT+" ", 20000)
	got := FindSecrets(text)
	if len(got) != 40000 {
		t.Errorf("found %d, want 40000", len(got))
	}
}

func TestMergeDisjoint(t *testing.T) {
	claimed := []Secret{{Start: 0, End: 5}, {Start: 10, End: 15}}
	add := []Secret{{Start: 3, End: 7}, {Start: 5, End: 10}, {Start: 14, End: 20}, {Start: 20, End: 22}}
	got := mergeDisjoint(claimed, add)
	want := []Secret{{Start: 0, End: 5}, {Start: 5, End: 10}, {Start: 10, End: 15}, {Start: 20, End: 22}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mergeDisjoint (-want +got):\n%s", diff)
	}
}

func TestFindSecrets_Skip(t *testing.T) {
	text := "DB_PASSWORD=hunter22xyz token=" + fakeGitHubPAT
	got := FindSecrets(text, KindCredentialAssignment)
	if len(got) != 1 || got[0].Kind != KindGitHubToken {
		t.Errorf("FindSecrets skipping credentials = %v, want the GitHub token alone", got)
	}
}
