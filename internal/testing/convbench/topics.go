package convbench

// A topic is something that happens in a speaker's life and is told in one
// turn. {x} is the topic's particular value (drawn from vals), {when} a
// relative time ("last weekend"), {o} the listener's name, {s} the teller's
// name in questions, {xq} the value as a question names it (same as {x}
// unless vals give "told|asked"), {n}/{nd} a number in words and digits.
type topic struct {
	kind string   // topics of one kind make multi-hop questions together
	vals []string // "as told|as asked" when the question names it differently
	tell []string // the turn that answers
	ask  []string // single-hop question, shares the topic's words
	when []string // temporal question
	para []string // the same question in other words
	near []string // a turn on the same topic that does not answer
	nums bool     // {n}/{nd} are drawn
}

var topics = []topic{
	{
		kind: "community",
		vals: []string{"LGBTQ support group", "grief support group", "support group for new parents", "support group for caregivers"},
		tell: []string{
			"I went to the {x} {when}. Hearing everyone's stories was so powerful, it made me feel a lot less alone.",
			"So {when} I finally went to that {x} I told you about. It was scary walking in but everyone was so welcoming.",
		},
		ask:  []string{"Which support group did {s} go to?", "What did {s} think of the {xq}?"},
		when: []string{"When did {s} go to the {xq}?", "When did {s} attend the {xq}?"},
		para: []string{"When did {s} meet with others going through the same struggles?", "Where did {s} find people who understood what she was facing?"},
		near: []string{"Groups like that can be so helpful. My neighbor swears by hers.", "Do you think you'll keep going to meetings like that?"},
	},
	{
		kind: "hobby",
		vals: []string{"pottery", "watercolor painting", "salsa dancing", "rock climbing", "woodworking", "photography"},
		tell: []string{
			"I signed up for a {x} class {when}! The instructor is super patient and I already made something I'm proud of.",
			"Guess what, I started {x} lessons {when}. It's the most relaxed I've felt in ages.",
		},
		ask:  []string{"What class did {s} sign up for?", "How did {s} like the {xq} lessons?"},
		when: []string{"When did {s} start {xq} lessons?", "When did {s} take up {xq}?"},
		para: []string{"What creative pastime did {s} recently pick up?", "Which new activity helps {s} unwind these days?"},
		near: []string{"I've always wanted to try a class like that but never find the time.", "My sister took lessons years ago and still talks about it."},
	},
	{
		kind: "family",
		vals: []string{"camping|camping", "to the beach|beach", "hiking in the mountains|hiking", "to the lake|lake"},
		tell: []string{
			"We took the kids {x} {when}. They roasted marshmallows and talked about it the whole drive home.",
			"{when} we went {x} as a family. Honestly it was exactly the break we all needed.",
		},
		ask:  []string{"Where did {s} take the kids?", "What did {s}'s family do on their {xq} trip?"},
		when: []string{"When did {s} go {xq} with the family?", "When did {s}'s family go on the {xq} trip?"},
		para: []string{"What outing did {s} enjoy with her children?", "How did {s} spend quality time with the little ones?"},
		near: []string{"Family trips are the best, even when everything goes wrong.", "We keep saying we'll get away somewhere but the weekends disappear."},
	},
	{
		kind: "pets",
		vals: []string{"a puppy named Biscuit|puppy", "a kitten named Luna|kitten", "a rescue dog named Max|rescue dog", "two guinea pigs|guinea pigs"},
		tell: []string{
			"We adopted {x} {when}! The shelter said we were a perfect match.",
			"Big news: {x} joined our family {when}. The house is chaos now but I love it.",
		},
		ask:  []string{"What pet did {s} adopt?", "What is the name of {s}'s new {xq}?"},
		when: []string{"When did {s} adopt the {xq}?", "When did {s} get a {xq}?"},
		para: []string{"Which animal joined {s}'s household?", "What new furry companion does {s} have at home?"},
		near: []string{"Animals make everything better. I miss having one around.", "How is the little one settling in? Still chewing everything?"},
	},
	{
		kind: "work",
		vals: []string{"a job at a nonprofit|nonprofit", "a position as a school counselor|school counselor", "an internship at a design studio|design studio", "a role at a hospital|hospital"},
		tell: []string{
			"I applied for {x} {when}. Fingers crossed, it would be a dream to work somewhere that actually helps people.",
			"{when} I got an interview for {x}! I was so nervous my hands were shaking.",
		},
		ask:  []string{"What job did {s} apply for?", "Where did {s} interview?"},
		when: []string{"When did {s} apply to the {xq}?", "When was {s}'s interview at the {xq}?"},
		para: []string{"What career move is {s} hoping to make?", "Which employer might {s} be joining soon?"},
		near: []string{"Work has been exhausting lately, I barely have energy in the evenings.", "Job hunting is so stressful, I remember how draining it was."},
	},
	{
		kind: "health",
		vals: []string{"{n} kilometre race|{nd} km race", "charity {n} mile run|{nd} mile run", "half marathon|half marathon"},
		nums: true,
		tell: []string{
			"I ran a {x} {when}! My legs were jelly by the end but I didn't stop once.",
			"Finished my first {x} {when}. The crowd cheering at the finish line made me cry a little.",
		},
		ask:  []string{"What race did {s} run?", "How did {s} do in the {xq}?"},
		when: []string{"When did {s} run the {xq}?", "When did {s} finish the {xq}?"},
		para: []string{"What athletic achievement is {s} proud of?", "Which endurance event did {s} complete?"},
		near: []string{"I keep meaning to start running again, maybe in spring.", "Did you train for long before that? I get out of breath on the stairs."},
	},
	{
		kind: "travel",
		vals: []string{"Lisbon", "Montreal", "Kyoto", "Edinburgh", "Mexico City", "Reykjavik"},
		tell: []string{
			"I just got back from {x}! We walked everywhere and ate way too much, I'd go back tomorrow.",
			"{when} I booked a trip to {x}. I've wanted to see it since I was a teenager.",
		},
		ask:  []string{"Which city did {s} visit?", "What did {s} do in {xq}?"},
		when: []string{"When did {s} travel to {xq}?", "When did {s} book the trip to {xq}?"},
		para: []string{"Where did {s} go on vacation?", "Which place abroad was {s} excited to see?"},
		near: []string{"Traveling always makes me realize how small my routine has become.", "I've heard the food there is incredible. Did you try anything strange?"},
	},
	{
		kind: "hobby",
		vals: []string{"a novel about a lighthouse keeper|lighthouse keeper", "a memoir by a famous chef|chef's memoir", "a book on mindfulness|mindfulness book", "a fantasy series with dragons|dragon series"},
		tell: []string{
			"I've been reading {x} and I can't put it down. I stayed up way too late {when}.",
			"{when} I finished {x}. The ending completely wrecked me, in a good way.",
		},
		ask:  []string{"What book is {s} reading?", "What did {s} think of the {xq}?"},
		when: []string{"When did {s} finish the {xq}?", "When was {s} reading the {xq}?"},
		para: []string{"Which story kept {s} up at night?", "What has {s} been enjoying on her nightstand?"},
		near: []string{"I need a good recommendation, I haven't read anything in months.", "Reading before bed is the only thing that calms my mind."},
	},
	{
		kind: "community",
		vals: []string{"the animal shelter|animal shelter", "a food bank|food bank", "the community garden|community garden", "a youth mentoring program|mentoring program"},
		tell: []string{
			"I started volunteering at {x} {when}. Giving back feels so good after the year I've had.",
			"{when} I spent the whole afternoon volunteering at {x}, and I already signed up for next month.",
		},
		ask:  []string{"Where does {s} volunteer?", "What does {s} do at the {xq}?"},
		when: []string{"When did {s} start volunteering at the {xq}?", "When did {s} volunteer at the {xq}?"},
		para: []string{"How does {s} give back to her neighborhood?", "What unpaid work has {s} been doing for others?"},
		near: []string{"I admire people who make time to help out like that.", "Volunteering sounds lovely, maybe I'll join you sometime."},
	},
	{
		kind: "family",
		vals: []string{"my grandmother's 90th birthday|grandmother's birthday", "my brother's wedding|brother's wedding", "my parents' anniversary|parents' anniversary", "my niece's graduation|niece's graduation"},
		tell: []string{
			"We celebrated {x} {when}. Everyone was there and we danced until midnight.",
			"{when} was {x}. I gave a little speech and somehow didn't cry until the very end.",
		},
		ask:  []string{"What family event did {s} celebrate?", "How did {s} celebrate the {xq}?"},
		when: []string{"When was {s}'s {xq}?", "When did {s} celebrate the {xq}?"},
		para: []string{"What big gathering did {s}'s relatives have?", "Which milestone did {s}'s family mark together?"},
		near: []string{"Family parties are always a little chaotic, aren't they?", "It's so nice when everybody manages to be in one place."},
	},
	{
		kind: "work",
		vals: []string{"a presentation to the board|board presentation", "my first solo art exhibit|art exhibit", "a workshop for teachers|teachers workshop", "a podcast interview|podcast interview"},
		tell: []string{
			"I gave {x} {when}. I practiced for days and it paid off, people actually asked great questions.",
			"{when} I did {x}, and a few people came up afterwards to say it inspired them.",
		},
		ask:  []string{"What did {s} present?", "How did {s}'s {xq} go?"},
		when: []string{"When did {s} give the {xq}?", "When was {s}'s {xq}?"},
		para: []string{"When did {s} speak in front of an audience?", "What public appearance made {s} nervous?"},
		near: []string{"Public speaking terrifies me, I don't know how you do it.", "You always seem so calm in front of people."},
	},
	{
		kind: "health",
		vals: []string{"yoga", "meditation", "a morning walk|morning walks", "swimming laps|swimming"},
		tell: []string{
			"I've been doing {x} every day since {when}. My sleep is so much better and I'm less anxious.",
			"{when} I committed to {x} before work, and I've stuck with it so far.",
		},
		ask:  []string{"What daily habit did {s} start?", "How has {xq} helped {s}?"},
		when: []string{"When did {s} start doing {xq}?", "Since when has {s} done {xq} every day?"},
		para: []string{"What routine improved {s}'s rest and mood?", "How does {s} take care of her wellbeing each morning?"},
		near: []string{"I really should move more, I sit at my desk all day.", "Self care is so important, I'm glad you're making time for it."},
	},
	{
		kind: "home",
		vals: []string{"a new apartment downtown|apartment downtown", "a small house by the park|house by the park", "my friend's spare room|spare room"},
		tell: []string{
			"We moved into {x} {when}! Still surrounded by boxes but it already feels like home.",
			"{when} I signed the lease for {x}. It's tiny but the light in the mornings is gorgeous.",
		},
		ask:  []string{"Where did {s} move?", "What is {s}'s new {xq} like?"},
		when: []string{"When did {s} move into the {xq}?", "When did {s} sign the lease for the {xq}?"},
		para: []string{"Where does {s} live now?", "What change of address did {s} go through?"},
		near: []string{"Moving is the worst, I still have boxes from three years ago.", "Do you like the neighborhood so far?"},
	},
	{
		kind: "hobby",
		vals: []string{"a song for my mom|song", "a poem about my childhood|poem", "a short story about friendship|short story"},
		tell: []string{
			"I wrote {x} {when}. It came out all at once, like it had been waiting there.",
			"{when} I finally finished {x} and read it out loud to my partner. We both teared up.",
		},
		ask:  []string{"What did {s} write?", "Who was {s}'s {xq} about?"},
		when: []string{"When did {s} write the {xq}?", "When did {s} finish her {xq}?"},
		para: []string{"What personal piece did {s} create?", "How did {s} express her feelings in words?"},
		near: []string{"You've always had a way with words.", "I'd love to hear it sometime, if you're ever comfortable sharing."},
	},
	{
		kind: "community",
		vals: []string{"a pride parade|pride parade", "a climate march|climate march", "a school board meeting|school board meeting", "a fundraiser for the library|library fundraiser"},
		tell: []string{
			"I went to {x} {when}. The energy was incredible, thousands of people who care about the same things.",
			"{when} I joined {x} with some friends. I made my own sign and my voice is still hoarse.",
		},
		ask:  []string{"What event did {s} attend with friends?", "What was the {xq} like for {s}?"},
		when: []string{"When did {s} go to the {xq}?", "When did {s} join the {xq}?"},
		para: []string{"When did {s} stand up publicly for a cause?", "What gathering made {s} feel part of something bigger?"},
		near: []string{"Events like that give me hope.", "I wish more people showed up for things that matter."},
	},
	{
		kind: "pets",
		vals: []string{"the vet|vet", "obedience school|obedience school", "the dog park|dog park"},
		tell: []string{
			"Took our little guy to {x} {when}. He was so brave, and everyone there made a fuss over him.",
			"{when} we went to {x} for the first time. Total success, although he barked at a squirrel for ten minutes.",
		},
		ask:  []string{"Where did {s} take her pet?", "How did the visit to the {xq} go?"},
		when: []string{"When did {s} take her pet to the {xq}?", "When did {s} first go to the {xq}?"},
		para: []string{"What outing did {s}'s animal go on?", "Where did {s}'s four-legged friend get lots of attention?"},
		near: []string{"He sounds like such a character.", "Pets really are family, aren't they?"},
	},
	{
		kind: "health",
		vals: []string{"a knee injury|knee injury", "a bad flu|flu", "a sprained wrist|sprained wrist", "a migraine|migraine"},
		tell: []string{
			"I've been dealing with {x} since {when}. It's been rough, I had to cancel almost everything.",
			"{when} I came down with {x} and spent three days on the couch feeling sorry for myself.",
		},
		ask:  []string{"What health problem did {s} have?", "How is {s}'s {xq}?"},
		when: []string{"When did {s} get the {xq}?", "Since when has {s} had the {xq}?"},
		para: []string{"Why was {s} stuck at home feeling unwell?", "What setback kept {s} from her plans?"},
		near: []string{"I hope you're feeling better soon, take it easy.", "Being sick is the worst, especially when you're busy."},
	},
	{
		kind: "work",
		vals: []string{"a course in counseling|counseling course", "night classes in graphic design|graphic design classes", "a certificate in accounting|accounting certificate"},
		tell: []string{
			"I enrolled in {x} {when}. It's a lot on top of everything, but it feels like the right step.",
			"{when} I passed the first exam of {x}! All those late nights were worth it.",
		},
		ask:  []string{"What is {s} studying?", "How is {s}'s {xq} going?"},
		when: []string{"When did {s} enroll in the {xq}?", "When did {s} pass her first exam in the {xq}?"},
		para: []string{"What education is {s} pursuing?", "How is {s} preparing for a new career?"},
		near: []string{"Going back to school takes guts.", "I could never study and work at the same time, you're amazing."},
	},
	{
		kind: "home",
		vals: []string{"a vegetable garden|vegetable garden", "new bookshelves|bookshelves", "the kitchen|kitchen"},
		tell: []string{
			"I spent {when} working on {x}. My back hurts but it looks so much better now.",
			"{when} we finally finished {x}. It took forever but I'm really proud of how it turned out.",
		},
		ask:  []string{"What home project did {s} finish?", "How did {s}'s {xq} turn out?"},
		when: []string{"When did {s} finish the {xq}?", "When did {s} work on the {xq}?"},
		para: []string{"What did {s} build or fix around the house?", "Which DIY job left {s} sore but proud?"},
		near: []string{"Home projects always take three times longer than planned.", "I'd love to see pictures sometime."},
	},
	{
		kind: "travel",
		vals: []string{"a road trip along the coast|road trip", "a weekend in the countryside|countryside weekend", "a cruise with my sisters|cruise"},
		tell: []string{
			"We went on {x} {when}. Bad weather half the time, but I laughed more than I have in months.",
			"{when} I got back from {x}. I took about four hundred photos.",
		},
		ask:  []string{"What trip did {s} take?", "How was {s}'s {xq}?"},
		when: []string{"When did {s} go on the {xq}?", "When did {s} get back from the {xq}?"},
		para: []string{"What getaway did {s} enjoy?", "Where did {s} go to escape for a while?"},
		near: []string{"A change of scenery does wonders.", "I need a getaway so badly."},
	},
}

// kinds name each kind for multi-hop questions about two of its turns.
var multiAsk = map[string][]string{
	"community": {"What has {s} done to connect with her community?", "Which community events and groups has {s} been part of?"},
	"hobby":     {"What hobbies has {s} picked up?", "What does {s} do in her free time?"},
	"family":    {"What has {s} done with her family?", "Which family moments did {s} talk about?"},
	"pets":      {"What has {s} shared about her pets?", "What did {s} say about her animals?"},
	"work":      {"How has {s}'s career been going?", "What work milestones did {s} mention?"},
	"health":    {"How has {s} been looking after her health?", "What did {s} say about her health and fitness?"},
	"travel":    {"Where has {s} traveled?", "What trips did {s} take?"},
	"home":      {"What changes did {s} make at home?", "What did {s} say about her home?"},
}

var whens = []string{"yesterday", "last weekend", "last week", "on Tuesday", "last Friday", "a few days ago", "this morning", "on Saturday", "two weeks ago", "last month"}

var numbers = []struct{ word, digits string }{{"five", "5"}, {"ten", "10"}, {"twenty", "20"}, {"three", "3"}, {"fifteen", "15"}}

var openers = []string{
	"Hey {o}! Long time no talk. How have you been since we last chatted?",
	"Hi {o}, it's been a crazy couple of weeks over here. What's new with you?",
	"{o}! I was just thinking about you. How's everything going?",
	"Good to hear from you, {o}. It feels like forever since we caught up.",
	"Hey! Sorry I went quiet for a while, life got really busy.",
}

var closers = []string{
	"Anyway, I should get going. Talk soon, take care!",
	"This was so nice, {o}. Let's not wait so long next time.",
	"Thanks for listening, {o}. You always know what to say.",
	"I have to run, but let's catch up again soon!",
	"Take care of yourself, okay? Bye for now!",
}

var reactions = []string{
	"Wow, {o}, that's amazing! I'm so happy for you.",
	"That sounds really tough. How are you holding up?",
	"Haha, I love that. You always find a way to make things fun.",
	"Oh really? Tell me more, I want to hear everything.",
	"That's so great to hear, {o}. You deserve good things.",
	"I'm so proud of you! That takes a lot of courage.",
	"No way! That's wonderful news.",
	"That must have meant a lot to you.",
}

var followups = []string{
	"How did it go? Was it what you expected?",
	"What made you decide to do that?",
	"Did you go by yourself or with someone?",
	"Would you do it again?",
	"How did you feel afterwards?",
}

var elaborations = []string{
	"Honestly it was better than I expected. I was nervous at first but it felt right pretty quickly.",
	"I went with a friend from work, which helped a lot. We're already planning the next time.",
	"I think I just needed something for myself, you know? Something that's not about anyone else.",
	"Afterwards I felt lighter, like I'd been carrying something around without noticing.",
	"It wasn't perfect, but I'm glad I did it. I learned a lot about myself.",
	"Definitely. I'd do it again in a heartbeat, maybe even next month.",
}

var chatter = []string{
	"The weather has been so strange lately, sunny one day and freezing the next.",
	"I've been so tired this week, I think I need a proper day off.",
	"Thanks, {o}. It really means a lot that you're always there for me.",
	"I know what you mean. Life has been so busy with everything going on.",
	"Same here! Some days I feel like I'm just running from one thing to the next.",
	"That reminds me, I still owe you a coffee from last time.",
	"You know, talking to you always puts things in perspective.",
	"Yeah, I've been trying to slow down and enjoy the little things.",
	"My phone has been acting up all week, sorry if I missed your messages.",
	"It's funny how things work out sometimes, isn't it?",
}

// orderAsk are multi-hop questions about the order of two events.
var orderAsk = []string{
	"Which came first for {s}, the {a} or the {b}?",
	"Did {s} do the {a} before or after the {b}?",
}

var valFollowups = []string{
	"Wait, the {xq}? How did that come about?",
	"I didn't know you were into the {xq} kind of thing! How was it?",
}

var callbacks = []string{
	"Oh, {o}, how is the {xq} thing going these days?",
	"Are you still thinking about the {xq}, {o}?",
	"By the way, {o}, any news on the {xq}?",
}

var callbackAnswers = []string{
	"Still going strong! I'll tell you more next time.",
	"Honestly it's been up and down, but I'm glad I did it.",
	"Not much new there, but thanks for asking.",
}
