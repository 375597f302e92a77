// MyLocationsApp
