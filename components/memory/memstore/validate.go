package memstore

import (
	"fmt"
	"unicode/utf8"
)

// checkString validates one input string against a byte limit and UTF-8.
// field names the input in the error, e.g. "entities[3].name".
func checkString(field, s string, limit int, limitName string) error {
	if len(s) > limit {
		return fmt.Errorf("%w: %s is %d bytes, more than %s (%d)", ErrLimit, field, len(s), limitName, limit)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalid, field)
	}
	return nil
}

func checkName(field, s string) error {
	return checkString(field, s, MaxNameBytes, "MaxNameBytes")
}

func checkObservation(field, s string) error {
	return checkString(field, s, MaxObservationBytes, "MaxObservationBytes")
}

// checkBatch validates the number of items of one call.
func checkBatch(field string, n int) error {
	if n > MaxBatch {
		return fmt.Errorf("%w: %s has %d items, more than MaxBatch (%d)", ErrLimit, field, n, MaxBatch)
	}
	return nil
}

// stringBudget counts the observation strings of one call against
// MaxBatchStrings.
type stringBudget int

func (b *stringBudget) take(field string, n int) error {
	*b += stringBudget(n)
	if *b > MaxBatchStrings {
		return fmt.Errorf("%w: %s brings the call to more than MaxBatchStrings (%d) observation strings", ErrLimit, field, MaxBatchStrings)
	}
	return nil
}

func validateEntities(entities []Entity) error {
	if err := checkBatch("entities", len(entities)); err != nil {
		return err
	}
	var budget stringBudget
	for i, e := range entities {
		if err := validateEntity(fmt.Sprintf("entities[%d]", i), e); err != nil {
			return err
		}
		if err := budget.take(fmt.Sprintf("entities[%d].observations", i), len(e.Observations)); err != nil {
			return err
		}
	}
	return nil
}

func validateEntity(field string, e Entity) error {
	if err := checkName(field+".name", e.Name); err != nil {
		return err
	}
	if err := checkName(field+".entityType", e.EntityType); err != nil {
		return err
	}
	for j, o := range e.Observations {
		if err := checkObservation(fmt.Sprintf("%s.observations[%d]", field, j), o); err != nil {
			return err
		}
	}
	return nil
}

func validateRelations(relations []Relation) error {
	if err := checkBatch("relations", len(relations)); err != nil {
		return err
	}
	for i, r := range relations {
		if err := validateRelation(fmt.Sprintf("relations[%d]", i), r); err != nil {
			return err
		}
	}
	return nil
}

func validateRelation(field string, r Relation) error {
	if err := checkName(field+".from", r.From); err != nil {
		return err
	}
	if err := checkName(field+".to", r.To); err != nil {
		return err
	}
	return checkName(field+".relationType", r.RelationType)
}

func validateNames(field string, names []string) error {
	if err := checkBatch(field, len(names)); err != nil {
		return err
	}
	for i, n := range names {
		if err := checkName(fmt.Sprintf("%s[%d]", field, i), n); err != nil {
			return err
		}
	}
	return nil
}

// validateObservationLists checks AddObservations and DeleteObservations
// input: itemField is "observations" or "deletions", listField the name of
// the string list inside each item.
func validateObservationLists(itemField, listField string, n int, item func(i int) (string, []string)) error {
	if err := checkBatch(itemField, n); err != nil {
		return err
	}
	var budget stringBudget
	for i := 0; i < n; i++ {
		name, list := item(i)
		f := fmt.Sprintf("%s[%d]", itemField, i)
		if err := checkName(f+".entityName", name); err != nil {
			return err
		}
		if err := budget.take(f+"."+listField, len(list)); err != nil {
			return err
		}
		for j, o := range list {
			if err := checkObservation(fmt.Sprintf("%s.%s[%d]", f, listField, j), o); err != nil {
				return err
			}
		}
	}
	return nil
}
