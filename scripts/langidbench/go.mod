module github.com/sluice-project/sluice/scripts/langidbench

go 1.26.8

require (
	github.com/abadojack/whatlanggo v1.0.1
	github.com/pemistahl/lingua-go v1.4.0
	github.com/sluice-project/sluice v0.0.0
)

require (
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/shopspring/decimal v1.3.1 // indirect
	golang.org/x/exp v0.0.0-20221106115401-f9659909a136 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/sluice-project/sluice => ../..
