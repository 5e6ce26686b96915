module example.invalid/route-gate/kubectl-yaml

go 1.24

require k8s.io/apimachinery v0.35.4
