import Foundation
import GraphStore

// Ported from Core Data by Tutorials' SurfJournal (kodecocodes/cdt-materials,
// 09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/JournalEntry+Helper.swift).
// Changed for GraphStore: `rating` is the generated `Int16?` where the app's class had an
// `NSNumber?` (so `rating?.int16Value` became `rating`).

extension JournalEntry {
    /// The entry's date in the short style of the current locale; empty without a date.
    func stringForDate() -> String {
        guard let date else { return "" }
        let dateFormatter = DateFormatter()
        dateFormatter.dateStyle = .short
        return dateFormatter.string(from: date)
    }

    /// The entry as a line of the export: date, height, period, wind, location and rating,
    /// each empty when unset, then a last empty field before the newline (the app joins a
    /// "\n" as its seventh field).
    func csv() -> String {
        let coalescedHeight = height ?? ""
        let coalescedPeriod = period ?? ""
        let coalescedWind = wind ?? ""
        let coalescedLocation = location ?? ""
        let coalescedRating: String
        if let rating {
            coalescedRating = String(rating)
        } else {
            coalescedRating = ""
        }
        return [stringForDate(), coalescedHeight, coalescedPeriod, coalescedWind, coalescedLocation, coalescedRating, "\n"]
            .joined(separator: ",")
    }
}
