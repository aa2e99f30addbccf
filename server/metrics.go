package server

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sluice-project/sluice/parallel"
)

// metrics are the server's Prometheus metrics, all named sluice_...:
//
//	sluice_http_requests_total{route,code}          requests answered, by route ("POST /v1/clean", "unmatched") and status ("hijacked" for a connection a handler took over)
//	sluice_http_request_duration_seconds{route}     latency histogram
//	sluice_http_requests_in_flight                  requests being served
//	sluice_http_panics_total                        handler panics recovered
//	sluice_pages_cleaned_total{format}              pages cleaned and answered
//	sluice_clean_input_bytes_total                  bytes of the pages cleaned
//	sluice_clean_output_bytes_total                 bytes of their answers
//	sluice_clean_admission_rejected_total           requests refused (503) after waiting for memory
//	sluice_memory_budget_bytes                      the budget's size
//	sluice_memory_budget_used_bytes                 the estimated cost of the pages being cleaned
//
// and the Go runtime and process collectors (go_..., process_...).
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	inFlight  prometheus.Gauge
	panics    prometheus.Counter
	pages     *prometheus.CounterVec
	bytesIn   prometheus.Counter
	bytesOut  prometheus.Counter
	admission prometheus.Counter
}

// newRegistry is the default registry: the runtime and process collectors.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// newMetrics makes the server's metrics and registers them on reg.
func newMetrics(reg *prometheus.Registry, budget *parallel.Budget) *metrics {
	m := &metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sluice_http_requests_total",
			Help: "HTTP requests answered, by route and status code."}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sluice_http_request_duration_seconds",
			Help:    "Time from a request's headers to the end of its answer, by route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sluice_http_requests_in_flight",
			Help: "HTTP requests being served."}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{Name: "sluice_http_panics_total",
			Help: "Handler panics recovered into a 500."}),
		pages: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sluice_pages_cleaned_total",
			Help: "Pages cleaned and answered, by output format."}, []string{"format"}),
		bytesIn: prometheus.NewCounter(prometheus.CounterOpts{Name: "sluice_clean_input_bytes_total",
			Help: "Bytes of the pages cleaned."}),
		bytesOut: prometheus.NewCounter(prometheus.CounterOpts{Name: "sluice_clean_output_bytes_total",
			Help: "Bytes of the cleaned pages' answers."}),
		admission: prometheus.NewCounter(prometheus.CounterOpts{Name: "sluice_clean_admission_rejected_total",
			Help: "Clean requests answered 503 because memory did not free up in time."}),
	}
	budgetSize := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sluice_memory_budget_bytes",
		Help: "Size of the memory budget pages are admitted to cleaning by."}, func() float64 { return float64(budget.Size()) })
	budgetUsed := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "sluice_memory_budget_used_bytes",
		Help: "Estimated memory cost of the pages being cleaned (sluice.CleanCost)."}, func() float64 { return float64(budget.Used()) })
	reg.MustRegister(m.requests, m.duration, m.inFlight, m.panics, m.pages, m.bytesIn, m.bytesOut, m.admission, budgetSize, budgetUsed)
	return m
}

// observe records one answered request.
func (m *metrics) observe(route, code string, d time.Duration) {
	m.requests.WithLabelValues(route, code).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

// handler serves the registry in the exposition format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: nil})
}
