package board

import (
	"net/http"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/evolution"
)

// The Drafts page: the evolution engine's drafts with their evidence, each
// approvable or rejectable by a read-write board through the same service
// as draft_approve and draft_reject.

type draftsData struct {
	Status string
	Drafts []evolution.Draft
	Log    []evolution.Entry // newest first, a page of them
}

func (b *Board) draftsPage(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	status := r.URL.Query().Get("status")
	if status == "" {
		status = evolution.StatusDraft
	} else if status == "all" {
		status = ""
	}
	ds, err := set.Evolution.Drafts(evolution.DraftQuery{Status: status})
	if err != nil {
		b.fail(w, r, err)
		return
	}
	log, err := set.Evolution.Log()
	if err != nil {
		b.fail(w, r, err)
		return
	}
	d := draftsData{Status: status, Drafts: ds}
	for i := len(log) - 1; i >= 0 && len(d.Log) < 20; i-- {
		d.Log = append(d.Log, log[i])
	}
	b.render(w, r, http.StatusOK, "drafts", "Drafts", d)
}

// decideDraft approves or rejects the draft the form names.
func (b *Board) decideDraft(_ http.ResponseWriter, r *http.Request, set *service.Set) (string, error) {
	id := r.PathValue("id")
	var err error
	switch r.PathValue("op") {
	case "approve":
		_, _, err = set.Evolution.Approve(id)
	case "reject":
		_, err = set.Evolution.Reject(id, r.PostFormValue("reason"))
	default:
		return "", &opError{r.PathValue("op")}
	}
	if err != nil {
		return "", err
	}
	return backOr(r, "drafts"), nil
}
