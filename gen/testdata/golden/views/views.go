// Package views shows the //mcp:view directive of the MCP Apps extension:
// a view from one file with its Content-Security-Policy, permissions and
// border, a folder of views, tools that show them, and a tool only the
// views call.
//
//mcp:server name=viewed version=1.0.0
//mcp:view uri=ui://weather/dashboard.html file=ui/dashboard.html title="Weather dashboard" description="Today's weather, drawn." csp.connect=https://api.open-meteo.com,wss://live.open-meteo.com csp.resource=https://*.tile.example.org permissions=clipboardWrite,geolocation domain=weather.example.com border
//mcp:view uri=ui://weather/panels/ dir=ui/panels border=false
package views

import "context"

// Report is a day's weather.
type Report struct {
	City  string  `json:"city"`
	TempC float64 `json:"tempC"`
}

// GetWeather returns today's weather for a city; hosts that show views
// draw it on the dashboard.
//
//mcp:tool readonly view=ui://weather/dashboard.html
type GetWeather struct {
	// The city.
	City string `json:"city"`
}

// Call reports the weather.
func (in GetWeather) Call(context.Context) (Report, error) {
	return Report{City: in.City, TempC: 21.5}, nil
}

// RefreshWeather refreshes the dashboard; only the dashboard calls it.
//
//mcp:tool readonly view=ui://weather/dashboard.html visibility=app
type RefreshWeather struct{}

// Call refreshes.
func (RefreshWeather) Call(context.Context) (string, error) { return "refreshed", nil }

// Forecast shows tomorrow on the forecast panel.
//
//mcp:tool readonly view=ui://weather/panels/forecast.html visibility=model,app
type Forecast struct{}

// Call forecasts.
func (Forecast) Call(context.Context) (string, error) { return "rain", nil }

// Alerts lists the weather alerts on the alerts panel; the model cannot
// call it.
//
//mcp:tool readonly view=ui://weather/panels/alerts.html visibility=app
type Alerts struct{}

// Call lists the alerts.
func (Alerts) Call(context.Context) (string, error) { return "none", nil }

// Units converts temperatures; it has nothing to do with the views.
//
//mcp:tool readonly
type Units struct {
	// Degrees Celsius.
	C float64 `json:"c"`
}

// Call converts.
func (in Units) Call(context.Context) (string, error) { return "ok", nil }
