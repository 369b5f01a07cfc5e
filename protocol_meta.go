package mcpgen

// Reserved _meta keys of the 2026-07-28 revision.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	metaProgressToken      = "progressToken"
	metaRelatedTask        = "io.modelcontextprotocol/related-task"
)

// Result types of the 2026-07-28 revision.
const (
	resultComplete      = "complete"
	resultInputRequired = "input_required"
	resultTask          = "task"
)

// tasksExtension is the capability key of the tasks extension.
const tasksExtension = "io.modelcontextprotocol/tasks"
