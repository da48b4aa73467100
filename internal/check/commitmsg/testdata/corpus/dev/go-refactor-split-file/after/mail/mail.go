package mail

import "net/smtp"

// Message is an e-mail.
type Message struct {
	From, Subject, Body string
	To                  []string
}

// Send delivers m through the server at addr.
func Send(addr string, m Message) error {
	return smtp.SendMail(addr, nil, m.From, m.To, []byte(render(m)))
}
