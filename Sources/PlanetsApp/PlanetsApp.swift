// PlanetsApp
