package subscription

// Rules owned by other packages (the filter grammar, Cloud Storage naming)
// are wired in here as those packages land.

func (v *validator) filterGrammar(string) {}

func (v *validator) storageNames() {}
