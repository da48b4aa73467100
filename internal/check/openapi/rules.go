package openapi

import "github.com/cairn-dev/cairn/internal/check"

// The rule ids.
const (
	ruleSyntax               = "openapi/syntax"
	ruleSchema               = "openapi/schema"
	ruleRefUnresolved        = "openapi/ref-unresolved"
	ruleRefNotFollowed       = "openapi/ref-not-followed"
	ruleOperationIDDuplicate = "openapi/operation-id-duplicate"
	ruleOperationIDMissing   = "openapi/operation-id-missing"
	rulePathParamUndeclared  = "openapi/path-param-undeclared"
	rulePathParamUnused      = "openapi/path-param-unused"
	ruleParamDuplicate       = "openapi/param-duplicate"
	rulePathIdentical        = "openapi/path-identical"
	ruleExampleInvalid       = "openapi/example-invalid"
	ruleSecurityUndefined    = "openapi/security-undefined"
	ruleServerVariable       = "openapi/server-variable"
	ruleComponentUnused      = "openapi/component-unused"
	ruleEnumType             = "openapi/enum-type"
)

// Rules lists the rules of the OpenAPI check.
func (*Checker) Rules() []check.Rule {
	return rules
}

var rules = []check.Rule{
	{
		ID: ruleSyntax, Severity: check.Error, Title: "File does not parse",
		Why: "A spec that is not valid YAML or JSON cannot be read by any tool: not the code generators, not the docs, not the gateway. " +
			"The same holds for a file a $ref leads to. YAML aliases that expand past what Cairn reads (a 'billion laughs') are reported here too.",
		Fix:  "Fix the syntax at the line given: indentation, a missing quote or comma, a duplicate key.",
		Bad:  "openapi: 3.1.0\ninfo:\n  title: Pets\n   version: 1.0.0",
		Good: "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0",
		Link: "https://spec.openapis.org/oas/v3.1.0#format",
	},
	{
		ID: ruleSchema, Severity: check.Error, Title: "Breaks the OpenAPI schema",
		Why: "Each OpenAPI version publishes a JSON Schema of what a document may contain: required fields (info.version, a response's description), " +
			"allowed values (a parameter's in), no unknown fields outside x- extensions. A document that breaks it is rejected or misread by " +
			"generators and gateways. Objects a $ref brings from another file are checked there against their part of the schema. " +
			"An openapi or swagger version that is not 2.0, 3.0.x, 3.1.x or 3.2.x is reported here too.",
		Fix:  "Make the object match the specification at the line given: add the missing field, fix the value, or prefix an extension with x-.",
		Bad:  "responses:\n  '200':\n    content: {}",
		Good: "responses:\n  '200':\n    description: The pets\n    content: {}",
		Link: "https://spec.openapis.org/#openapi-specification-schemas",
	},
	{
		ID: ruleRefUnresolved, Severity: check.Error, Title: "$ref does not resolve",
		Why: "A $ref to a file or a JSON pointer that does not exist leaves a hole in the API: the object it stands for is missing " +
			"for every tool that reads the spec. Files are read from the project only; a $ref that leaves the project does not resolve.",
		Fix:  "Point the $ref at a file (relative to the file the $ref is in) and a JSON pointer that exist, or add what it names.",
		Bad:  "schema:\n  $ref: '#/components/schemas/Pets'  # defined as Pet",
		Good: "schema:\n  $ref: '#/components/schemas/Pet'",
		Link: "https://spec.openapis.org/oas/v3.1.0#reference-object",
	},
	{
		ID: ruleRefNotFollowed, Severity: check.Info, Title: "$ref not followed",
		Why: "Cairn reads no network: a $ref to a URL is not fetched, so what it points to is not checked. The same holds for a $ref to a file " +
			"when the spec was given inline, and for a $ref to a JSON Schema anchor. Nothing is wrong; the check is only partial there.",
		Fix:  "Nothing to fix if the remote $ref is meant. To have it checked, keep a copy in the project and $ref that file.",
		Bad:  "$ref: 'https://example.com/schemas/pet.yaml'",
		Good: "$ref: './schemas/pet.yaml'",
		Link: "https://spec.openapis.org/oas/v3.1.0#relative-references-in-uris",
	},
	{
		ID: ruleOperationIDDuplicate, Severity: check.Error, Title: "Duplicate operationId",
		Why: "operationId must be unique among all operations of the API (the specification says so): code generators name methods by it, " +
			"and links refer to operations by it. Two operations with one id produce clashing methods or a link to the wrong operation.",
		Fix:  "Give each operation its own operationId.",
		Bad:  "/pets:\n  get:\n    operationId: getPets\n/owners:\n  get:\n    operationId: getPets",
		Good: "/pets:\n  get:\n    operationId: listPets\n/owners:\n  get:\n    operationId: listOwners",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#operation-operationid-unique",
	},
	{
		ID: ruleOperationIDMissing, Severity: check.Warning, Title: "Operation without operationId",
		Why: "operationId is optional, but without it code generators invent method names from the path (getPetsPetIdOwners), " +
			"and the operation cannot be the target of a link.",
		Fix:  "Add a unique operationId to each operation.",
		Bad:  "/pets:\n  get:\n    responses: {...}",
		Good: "/pets:\n  get:\n    operationId: listPets\n    responses: {...}",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#operation-operationid",
	},
	{
		ID: rulePathParamUndeclared, Severity: check.Error, Title: "Path variable without its parameter",
		Why: "Each {variable} of a path template must be declared as a parameter with in: path (on the path item or the operation). " +
			"Without it clients do not know the variable's type, and generated clients cannot fill the path.",
		Fix:  "Declare it: {name: petId, in: path, required: true, schema: {type: string}}.",
		Bad:  "/pets/{petId}:\n  get:\n    operationId: getPet",
		Good: "/pets/{petId}:\n  get:\n    operationId: getPet\n    parameters:\n      - {name: petId, in: path, required: true, schema: {type: string}}",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#path-params",
	},
	{
		ID: rulePathParamUnused, Severity: check.Error, Title: "Path parameter not in the path",
		Why: "A parameter with in: path must name a {variable} of its path template; one that does not can never be sent, " +
			"and usually means a renamed variable or a query parameter declared in the wrong place.",
		Fix:  "Add the {variable} to the path, rename the parameter to match it, or declare it in: query.",
		Bad:  "/pets:\n  get:\n    parameters:\n      - {name: limit, in: path, required: true}",
		Good: "/pets:\n  get:\n    parameters:\n      - {name: limit, in: query}",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#path-params",
	},
	{
		ID: ruleParamDuplicate, Severity: check.Error, Title: "Duplicate parameter",
		Why: "A parameter list must not contain the same name and location twice (the specification forbids it): which one applies is undefined. " +
			"The same goes for a path template that uses one {variable} twice.",
		Fix:  "Remove one of the two, or rename one.",
		Bad:  "parameters:\n  - {name: limit, in: query}\n  - {name: limit, in: query}",
		Good: "parameters:\n  - {name: limit, in: query}",
		Link: "https://spec.openapis.org/oas/v3.1.0#fixed-fields-7",
	},
	{
		ID: rulePathIdentical, Severity: check.Error, Title: "Identical paths",
		Why: "Paths that differ only in the names of their variables (/pets/{id} and /pets/{petId}) are the same path: the specification " +
			"says they MUST NOT both exist, and a router cannot tell which one a request is for.",
		Fix:  "Merge the two path items into one, with one name for each variable.",
		Bad:  "paths:\n  /pets/{id}: {...}\n  /pets/{petId}: {...}",
		Good: "paths:\n  /pets/{petId}: {...}",
		Link: "https://spec.openapis.org/oas/v3.1.0#path-templating-matching",
	},
	{
		ID: ruleExampleInvalid, Severity: check.Error, Title: "Example does not match its schema",
		Why: "Examples are what people copy and what mock servers return; one that does not match its schema documents an API that does not exist, " +
			"and contract tests built from it fail. Media type, parameter and header examples and a schema's example, examples and default " +
			"are validated as JSON Schema (2.0 and 3.0 with nullable; 3.1 as 2020-12). Only JSON values are checked: a string example " +
			"of a non-JSON media type is a serialized body. Param example_formats=ignore stops checking string formats.",
		Fix:  "Change the example to match the schema, or fix the schema if the example is right.",
		Bad:  "schema: {type: object, properties: {id: {type: integer}}}\nexample: {id: \"abc\"}",
		Good: "schema: {type: object, properties: {id: {type: integer}}}\nexample: {id: 42}",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#oas3-valid-media-example",
	},
	{
		ID: ruleEnumType, Severity: check.Error, Title: "Enum value of the wrong type",
		Why: "An enum value that is not of the schema's type can never be sent or received: the type rejects it. " +
			"It is usually a value YAML read as a number or a boolean where a string was meant: enum: [1, 2] or [true, false] under type: string.",
		Fix:  "Quote the value if it is a string, or fix the schema's type.",
		Bad:  "type: string\nenum: [1, 2, 3]",
		Good: "type: string\nenum: ['1', '2', '3']",
		Link: "https://redocly.com/docs/cli/rules/oas/no-enum-type-mismatch",
	},
	{
		ID: ruleSecurityUndefined, Severity: check.Error, Title: "Undefined security scheme",
		Why: "A security requirement must name a scheme defined in components.securitySchemes (securityDefinitions in 2.0). " +
			"One that does not leaves the operation's authentication undefined: clients and gateways cannot apply it.",
		Fix:  "Define the scheme, or name one that is defined.",
		Bad:  "security:\n  - oauth: []\ncomponents:\n  securitySchemes:\n    OAuth2: {...}",
		Good: "security:\n  - OAuth2: []\ncomponents:\n  securitySchemes:\n    OAuth2: {...}",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#oas3-operation-security-defined",
	},
	{
		ID: ruleServerVariable, Severity: check.Error, Title: "Server variable undefined or default outside its enum",
		Why: "Each {variable} of a server URL must be defined in the server's variables, and a variable's default must be one of its enum: " +
			"otherwise clients cannot build the URL.",
		Fix:  "Define the variable with a default, or make the default one of the enum's values.",
		Bad:  "servers:\n  - url: https://{region}.example.com",
		Good: "servers:\n  - url: https://{region}.example.com\n    variables:\n      region: {default: eu, enum: [eu, us]}",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#oas3-server-variables",
	},
	{
		ID: ruleComponentUnused, Severity: check.Warning, Title: "Unused component",
		Why: "A component (a definition in 2.0) that nothing $refs is dead weight: it is maintained, reviewed and published for nothing, " +
			"and often means a $ref points at a copy of it. Security schemes are not counted (security requirements use them by name).",
		Fix:  "$ref it where it is meant to be used, or remove it.",
		Bad:  "components:\n  schemas:\n    OldPet: {...}  # nothing $refs it",
		Good: "components:\n  schemas:\n    Pet: {...}  # $ref'd by /pets",
		Link: "https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#oas3-unused-component",
	},
}
